// Installs the workspace with the pinned pnpm when the lockfile changed since the last install,
// so that `npm start` and `npm test` work on a fresh clone with only Node and npm.
import { createHash } from "node:crypto"
import { execSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"

const root = new URL("../..", import.meta.url).pathname
const stamp = `${root}node_modules/.tripsearch-install`
const inputs = ["pnpm-lock.yaml", "package.json", "pnpm-workspace.yaml"]
const hash = createHash("sha256")
for (const f of inputs) if (existsSync(root + f)) hash.update(readFileSync(root + f))
const digest = hash.digest("hex")

if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) process.exit(0)
// pnpm freezes the lockfile by itself when CI is set.
execSync("npx --yes pnpm@10.34.8 install --reporter=append-only", { cwd: root, stdio: "inherit" })
writeFileSync(stamp, digest)
