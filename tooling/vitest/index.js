// Shared vitest settings for every package: tests live in test/ beside src/, run in forks so
// that native modules (better-sqlite3) and worker threads behave as in production.
import { defineProject } from "vitest/config"
import { fileURLToPath } from "node:url"
import { basename, dirname } from "node:path"

/**
 * The workspace's built packages (`dist/`), loaded by Node as the servers load them rather than
 * transformed again by vitest: they resolve outside `node_modules`, which vitest would otherwise
 * inline, in each test file (apps/api's config.test.ts: 5.2 s -> 4.1 s, most of it that).
 */
const WORKSPACE_BUILDS = [/\/(?:packages|apps|tooling|examples)\/[^/]+\/dist\//]

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
      server: { deps: { external: WORKSPACE_BUILDS } },
      ...overrides
    }
  })
}
