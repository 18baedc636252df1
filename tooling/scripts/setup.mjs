// Installs the workspace with the pinned pnpm when it is not installed, when the lockfile or a
// manifest changed since the last install, or when the last install did not finish, so that
// `npm start` and `npm test` work on a fresh clone with only Node and npm. Prints nothing when
// there is nothing to do; a failed install shows pnpm's own output and exits non-zero.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { decideInstall, INSTALL_INPUTS, INSTALL_PRODUCTS, installDigest, installEnv, PENDING, workspaceParents } from "./installState.mjs"

const PNPM = "pnpm@10.34.8"
const root = fileURLToPath(new URL("../..", import.meta.url))
const at = (path) => join(root, path)
const stamp = at("node_modules/.tripsearch-install")
const say = (line) => process.stderr.write(`setup: ${line}\n`)

// The workspace's package folders: their manifests count in the digest (a dependency added to one
// package changes what an install must do before the lockfile has caught up with it), and a
// reinstall removes their node_modules.
const workspace = existsSync(at("pnpm-workspace.yaml")) ? readFileSync(at("pnpm-workspace.yaml"), "utf8") : ""
// Per parent folder, in the order the digest has always read them.
const packageDirs = workspaceParents(workspace).flatMap((parent) =>
  existsSync(at(parent))
    ? readdirSync(at(parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(parent, entry.name))
        .sort((a, b) => (join(a, "package.json") < join(b, "package.json") ? -1 : 1))
    : []
)
const manifests = packageDirs.map((dir) => join(dir, "package.json")).filter((f) => existsSync(at(f)))
const digest = installDigest([...INSTALL_INPUTS, ...manifests].map((f) => (existsSync(at(f)) ? readFileSync(at(f)) : undefined)))
const decision = decideInstall({
  nodeModules: existsSync(at("node_modules")),
  stamp: existsSync(stamp) ? readFileSync(stamp, "utf8") : undefined,
  digest,
  missing: INSTALL_PRODUCTS.filter((p) => !existsSync(at(p)))
})
if (decision.action === "none") process.exit(0)

if (decision.action === "reinstall") {
  say(`${decision.reason}: removing node_modules and installing again`)
  for (const dir of packageDirs) rmSync(at(join(dir, "node_modules")), { recursive: true, force: true })
  rmSync(at("node_modules"), { recursive: true, force: true })
} else {
  say(`installing the workspace with ${PNPM} (${decision.reason})`)
}

mkdirSync(at("node_modules"), { recursive: true })
writeFileSync(stamp, PENDING)
// The log levels are given on the command line, so that no inherited setting (npm's --silent, a
// loglevel in an .npmrc, which pnpm reads too) can hide a failure. pnpm's output is kept back and shown
// whole if the install fails: a successful first install would otherwise end in a screen of
// warnings about workspace commands whose dist/ is not built yet.
const started = performance.now()
const install = await new Promise((done) => {
  const output = []
  const child = spawn("npx", ["--yes", "--loglevel=warn", PNPM, "install", "--loglevel=info", "--reporter=append-only"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: installEnv(process.env)
  })
  child.stdout.on("data", (chunk) => output.push(chunk))
  child.stderr.on("data", (chunk) => output.push(chunk))
  child.on("error", (error) => done({ error, output: "" }))
  child.on("close", (status, signal) => done({ status, signal, output: Buffer.concat(output).toString("utf8") }))
})
if (install.error !== undefined) {
  say(`cannot run npx (${install.error.message}): it comes with npm, which setup needs beside Node`)
  process.exit(1)
}
if (install.status !== 0) {
  process.stderr.write(install.output)
  say(`${PNPM} install failed (${install.status === null ? `signal ${install.signal}` : `exit ${install.status}`}); its output is above.`)
  say("better-sqlite3 builds from source where no prebuilt binary fits: that needs python3, make and a C++ compiler (see the README).")
  say("The next run removes the unfinished install and installs again.")
  process.exit(install.status ?? 1)
}
const stillMissing = INSTALL_PRODUCTS.filter((p) => !existsSync(at(p)))
if (stillMissing.length > 0) {
  say(`${PNPM} install succeeded but left out ${stillMissing.join(", ")}; the next run installs again.`)
  process.exit(1)
}
writeFileSync(stamp, digest)
say(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
