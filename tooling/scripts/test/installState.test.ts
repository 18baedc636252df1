import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { decideInstall, INSTALL_PRODUCTS, installDigest, installEnv, PENDING, workspaceParents } from "../installState.mjs"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const digest = "d1"

describe("decideInstall", () => {
  it("installs a clone that has no node_modules", () => {
    expect(decideInstall({ nodeModules: false, stamp: undefined, digest, missing: INSTALL_PRODUCTS })).toMatchObject({ action: "install" })
  })

  it("does nothing when the stamp matches and every product is there", () => {
    expect(decideInstall({ nodeModules: true, stamp: digest, digest, missing: [] })).toEqual({ action: "none" })
  })

  it("installs again when the lockfile or a manifest changed", () => {
    expect(decideInstall({ nodeModules: true, stamp: "d0", digest, missing: [] })).toEqual({ action: "install", reason: "the lockfile or a manifest changed" })
  })

  it("starts from scratch after an install that did not finish, even if everything seems there", () => {
    expect(decideInstall({ nodeModules: true, stamp: PENDING, digest, missing: [] })).toEqual({ action: "reinstall", reason: "the last install did not finish" })
  })

  it("starts from scratch when a product is missing, whatever the stamp says", () => {
    for (const stamp of [digest, undefined, "d0"]) {
      expect(decideInstall({ nodeModules: true, stamp, digest, missing: ["node_modules/.bin/pnpm"] })).toEqual({
        action: "reinstall",
        reason: "the install is incomplete (missing node_modules/.bin/pnpm)"
      })
    }
  })
})

describe("the install's inputs and products", () => {
  it("lists products that a real install of this workspace has", () => {
    expect(INSTALL_PRODUCTS.filter((p) => !existsSync(root + p))).toEqual([])
  })

  it("digests the bytes of the inputs, so any change to one reinstalls", () => {
    const lock = readFileSync(root + "pnpm-lock.yaml")
    expect(installDigest([lock, undefined])).toBe(installDigest([lock]))
    expect(installDigest([lock])).not.toBe(installDigest([Buffer.concat([lock, Buffer.from("\n")])]))
  })

  it("reads the workspace's package folders from pnpm-workspace.yaml", () => {
    expect(workspaceParents(readFileSync(root + "pnpm-workspace.yaml", "utf8"))).toEqual(["packages", "apps", "tooling", "examples"])
    expect(workspaceParents('packages:\n  - "libs/*"\ncatalog:\n  - not/*\n')).toEqual(["libs"])
  })

  it("keeps npm's --silent from silencing the package manager", () => {
    const env = installEnv({ PATH: "/bin", npm_config_loglevel: "silent", NPM_CONFIG_LOGLEVEL: "silent", npm_config_cache: "/c" })
    expect(env).toEqual({ PATH: "/bin", npm_config_cache: "/c" })
  })
})
