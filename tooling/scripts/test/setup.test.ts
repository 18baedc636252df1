import { spawnSync } from "node:child_process"
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { INSTALL_PRODUCTS } from "../installState.mjs"

const scripts = fileURLToPath(new URL("..", import.meta.url))
let tmp = ""
let repo = ""
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "tripsearch-setup-"))
  repo = join(tmp, "repo")
  for (const f of ["setup.mjs", "installState.mjs", "turbo.mjs"]) {
    mkdirSync(join(repo, "tooling/scripts"), { recursive: true })
    copyFileSync(join(scripts, f), join(repo, "tooling/scripts", f))
  }
  writeFileSync(join(repo, "package.json"), "{}\n")
  writeFileSync(join(repo, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n")
  writeFileSync(join(repo, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n")
  mkdirSync(join(repo, "packages/storage-sqlite"), { recursive: true })
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

const script = (path: string, body: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
}

/**
 * A stand-in for `npx pnpm install` on PATH: it logs its arguments and log level, then either
 * fails half-way (a partial node_modules and pnpm-like error output) or lays down every product.
 */
const fakeNpx = () =>
  script(
    join(tmp, "bin/npx"),
    `echo "$* loglevel=\${npm_config_loglevel:-unset}" >> "${tmp}/npx.log"
if [ "$FAKE_INSTALL" = fail ]; then
  mkdir -p node_modules/.bin packages/storage-sqlite/node_modules && touch node_modules/.bin/turbo node_modules/leftover packages/storage-sqlite/node_modules/leftover
  echo " ERR_PNPM_LIFECYCLE  better-sqlite3 install: gyp ERR! find Python" >&2
  exit 7
fi
echo " WARN  Failed to create bin at packages/dataset/dist/cli.js"
for p in ${INSTALL_PRODUCTS.join(" ")}; do mkdir -p "$(dirname "$p")" && touch "$p"; done`
  )

const setup = (install: "ok" | "fail") =>
  spawnSync(process.execPath, [join(repo, "tooling/scripts/setup.mjs")], {
    cwd: tmp,
    encoding: "utf8",
    env: { ...process.env, PATH: `${join(tmp, "bin")}:${process.env.PATH}`, FAKE_INSTALL: install, npm_config_loglevel: "silent" }
  })
const npxCalls = () => (existsSync(join(tmp, "npx.log")) ? readFileSync(join(tmp, "npx.log"), "utf8").trim().split("\n") : [])
const stampOf = () => readFileSync(join(repo, "node_modules/.tripsearch-install"), "utf8")

describe("setup.mjs", () => {
  it("shows a failed install's own output, then recovers on the next run, then stays quiet", () => {
    fakeNpx()
    const failed = setup("fail")
    expect(failed.status).toBe(7)
    expect(failed.stderr).toContain("ERR_PNPM_LIFECYCLE  better-sqlite3 install: gyp ERR! find Python")
    expect(failed.stderr).toContain("setup: pnpm@10.34.8 install failed (exit 7); its output is above.")
    expect(failed.stderr).toContain("python3, make and a C++ compiler")
    expect(failed.stderr).not.toMatch(/\n\s+at /)
    expect(stampOf()).toBe("pending")
    // npm's --silent must not reach the package manager; the log levels are set explicitly.
    expect(npxCalls()).toEqual(["--yes --loglevel=warn pnpm@10.34.8 install --loglevel=info --reporter=append-only loglevel=unset"])

    const recovered = setup("ok")
    expect(recovered.status).toBe(0)
    expect(recovered.stderr).toContain("setup: the last install did not finish: removing node_modules and installing again")
    expect(existsSync(join(repo, "node_modules/leftover"))).toBe(false)
    expect(existsSync(join(repo, "packages/storage-sqlite/node_modules/leftover"))).toBe(false)
    expect(stampOf()).toMatch(/^[0-9a-f]{64}$/)
    // A successful install's output is not shown: only that it happened.
    expect(recovered.stderr).toMatch(/setup: installed in \d+ s\n$/)
    expect(recovered.stderr).not.toContain("WARN")

    const again = setup("ok")
    expect(again).toMatchObject({ status: 0, stdout: "", stderr: "" })
    expect(npxCalls()).toHaveLength(2)
  })

  it("reinstalls when a product of the install went missing, and installs when the lockfile changed", () => {
    fakeNpx()
    expect(setup("ok").status).toBe(0)
    rmSync(join(repo, "node_modules/.bin/pnpm"))
    const incomplete = setup("ok")
    expect(incomplete.stderr).toContain("setup: the install is incomplete (missing node_modules/.bin/pnpm): removing node_modules and installing again")
    expect(existsSync(join(repo, "node_modules/.bin/pnpm"))).toBe(true)

    writeFileSync(join(repo, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n# changed\n")
    const changed = setup("ok")
    expect(changed.status).toBe(0)
    expect(changed.stderr).toContain("setup: installing the workspace with pnpm@10.34.8 (the lockfile or a manifest changed)")
    expect(npxCalls()).toHaveLength(3)
  })
})

/** A stand-in for turbo: prints turbo-like output, records the telemetry variable, exits as told. */
const fakeTurbo = () =>
  script(
    join(repo, "node_modules/.bin/turbo"),
    `echo "TURBO_TELEMETRY_DISABLED=$TURBO_TELEMETRY_DISABLED" > "${tmp}/turbo.env"
echo "   • Packages in scope: a, b"
echo "a:build: error TS2322" >&2
echo " Tasks:    8 successful, 8 total"
echo "Cached:    $FAKE_CACHED cached, 8 total"
exit $FAKE_EXIT`
  )
const turbo = (args: ReadonlyArray<string>, cached: number, exit: number) =>
  spawnSync(process.execPath, [join(repo, "tooling/scripts/turbo.mjs"), ...args], {
    encoding: "utf8",
    env: { ...process.env, FAKE_CACHED: String(cached), FAKE_EXIT: String(exit), TURBO_TELEMETRY_DISABLED: "" }
  })

describe("turbo.mjs", () => {
  it("turns telemetry off, and with --quiet prints nothing for a build with nothing to say", () => {
    fakeTurbo()
    expect(turbo(["--quiet", "run", "build"], 8, 0)).toMatchObject({ status: 0, stdout: "", stderr: "" })
    expect(readFileSync(join(tmp, "turbo.env"), "utf8")).toBe("TURBO_TELEMETRY_DISABLED=1\n")
  })

  it("with --quiet says in one line what a build compiled, and shows all of a failing build", () => {
    fakeTurbo()
    const compiled = turbo(["--quiet", "run", "build", "--output-logs=errors-only"], 3, 0)
    expect(compiled).toMatchObject({ status: 0, stdout: "" })
    expect(compiled.stderr).toMatch(/^build: 5 of 8 packages compiled in \d+\.\d s\n$/)
    const failed = turbo(["--quiet", "run", "build"], 7, 2)
    expect(failed.status).toBe(2)
    expect(failed.stderr).toContain("Packages in scope: a, b")
    expect(failed.stderr).toContain("a:build: error TS2322")
  })

  it("without --quiet passes turbo's output through", () => {
    fakeTurbo()
    const r = turbo(["run", "typecheck"], 8, 0)
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("Tasks:    8 successful, 8 total")
    expect(readFileSync(join(tmp, "turbo.env"), "utf8")).toBe("TURBO_TELEMETRY_DISABLED=1\n")
  })
})
