import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // Two test files at a time. Vitest's default on a 2-core machine is one (cores - 1), and
    // most of the suite's time is spent waiting: for servers, PostgreSQL, the browser, and the
    // pool's workers. With two files at a time vitest's part of `npm test` took 5.6-6.0 minutes
    // in three runs instead of 7.9, every test passing in each: the tests that measure a time
    // leave room for a second file beside them.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      "packages/*",
      "apps/*",
      "examples/*",
      // The set-up scripts are plain Node modules outside the workspace's packages.
      { test: { name: "tooling-scripts", root: "tooling/scripts", include: ["test/**/*.test.ts"], pool: "forks", testTimeout: 30_000 } }
    ]
  }
})
