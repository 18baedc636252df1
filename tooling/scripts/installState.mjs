// What setup.mjs decides, kept free of I/O so that a test can walk through every case.
import { createHash } from "node:crypto"

/** The files whose change means the workspace must be installed again. */
export const INSTALL_INPUTS = ["pnpm-lock.yaml", "package.json", "pnpm-workspace.yaml"]

/**
 * What a finished install leaves behind, beyond pnpm's own bookkeeping: the commands the root
 * scripts and turbo run (turbo runs each package's build through `pnpm`), and the native module
 * that a failed source build leaves missing.
 */
export const INSTALL_PRODUCTS = [
  "node_modules/.modules.yaml",
  "node_modules/.bin/pnpm",
  "node_modules/.bin/turbo",
  "node_modules/.bin/tsc",
  "node_modules/.bin/vitest",
  "packages/storage-sqlite/node_modules/better-sqlite3/build/Release/better_sqlite3.node"
]

/** Written to the stamp before an install starts; replaced by the digest when it succeeds. */
export const PENDING = "pending"

/** The digest of the install inputs (`contents`: each file's bytes, or undefined if absent). */
export const installDigest = (contents) => {
  const hash = createHash("sha256")
  for (const content of contents) if (content !== undefined) hash.update(content)
  return hash.digest("hex")
}

/**
 * @param {{ nodeModules: boolean, stamp: string | undefined, digest: string, missing: ReadonlyArray<string> }} state
 *   `stamp`: the stamp file's text; `missing`: the INSTALL_PRODUCTS not found.
 * @returns {{ action: "none" } | { action: "install", reason: string } | { action: "reinstall", reason: string }}
 *   "reinstall": node_modules holds an unfinished install. pnpm would call that "Already up to
 *   date" and skip the steps that failed, so it has to be removed before installing again.
 */
export const decideInstall = ({ nodeModules, stamp, digest, missing }) => {
  if (!nodeModules) return { action: "install", reason: "no node_modules yet" }
  if (stamp === PENDING) return { action: "reinstall", reason: "the last install did not finish" }
  if (missing.length > 0) return { action: "reinstall", reason: `the install is incomplete (missing ${missing.join(", ")})` }
  if (stamp !== digest) return { action: "install", reason: stamp === undefined ? "not installed by this script yet" : "the lockfile or a manifest changed" }
  return { action: "none" }
}

/**
 * The environment for the package manager. `npm run --silent` exports npm_config_loglevel=silent,
 * which npx and pnpm both obey: a failed install would then print nothing but its exit status.
 */
export const installEnv = (env) => {
  const clean = { ...env }
  for (const name of Object.keys(clean)) if (name.toLowerCase() === "npm_config_loglevel") delete clean[name]
  return clean
}

/** The workspace's package folders, from pnpm-workspace.yaml's `packages:` globs of the form `dir/*`. */
export const workspaceParents = (workspaceYaml) => {
  const parents = []
  let inPackages = false
  for (const line of workspaceYaml.split("\n")) {
    if (/^\S/.test(line)) inPackages = /^packages:\s*$/.test(line)
    else if (inPackages) {
      const m = /^\s+-\s+["']?([^"'*\s]+)\/\*["']?\s*$/.exec(line)
      if (m) parents.push(m[1])
    }
  }
  return parents
}
