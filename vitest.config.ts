import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    // Two test files at a time. Vitest's default on a 2-core machine is one (cores - 1), and
    // most of the suite's time is spent waiting: for servers, PostgreSQL, the browser, and the
    // pool's workers. With two files at a time vitest's part of `npm test` took 5.6-6.0 minutes
    // in three runs instead of 7.9, every test passing in each: the tests that measure a time
    // leave room for a second file beside them.
    maxWorkers: 2,
    // Both kept for the whole run: tinypool ends a worker left idle above the minimum at once, and
    // with isolate off (below) that ending can reject a file's task with "Terminating worker
    // thread", an unhandled rejection that fails the run (as one run with 3 workers and a minimum
    // of 1 did here; vitest issues 8133 and 8564).
    minWorkers: 2,
    // A vitest worker runs one project's files one after the other in one process, rather than
    // each file in a new one: the modules a file imports (Effect, the core, Express...) are loaded
    // once per worker and project. Read here, for all projects (vitest's forks pool takes it from
    // the root). Nothing a test file changes in its process (environment, globals) is left for the
    // next: none does, and none may.
    poolOptions: { forks: { isolate: false } },
    projects: [
      "packages/*",
      "apps/*",
      "examples/*",
      // The set-up scripts are plain Node modules outside the workspace's packages.
      { test: { name: "tooling-scripts", root: "tooling/scripts", include: ["test/**/*.test.ts"], pool: "forks", testTimeout: 30_000 } }
    ]
  }
})
