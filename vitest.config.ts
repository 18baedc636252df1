import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/*",
      "examples/*",
      // The set-up scripts are plain Node modules outside the workspace's packages.
      { test: { name: "tooling-scripts", root: "tooling/scripts", include: ["test/**/*.test.ts"], pool: "forks", testTimeout: 30_000 } }
    ]
  }
})
