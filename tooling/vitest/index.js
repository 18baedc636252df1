// Shared vitest settings for every package: tests live in test/ beside src/, run in forks so
// that native modules (better-sqlite3) and worker threads behave as in production.
import { defineProject } from "vitest/config"
import { fileURLToPath } from "node:url"
import { basename, dirname } from "node:path"

/** @param {string} configUrl the package's vitest.config.ts import.meta.url */
export const packageProject = (configUrl, overrides = {}) => {
  const root = dirname(fileURLToPath(configUrl))
  return defineProject({
    test: {
      name: basename(root),
      root,
      include: ["test/**/*.test.ts"],
      pool: "forks",
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...overrides
    }
  })
}
