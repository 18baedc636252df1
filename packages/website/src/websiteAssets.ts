import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { gzipSync } from "node:zlib"
import type { Request, Response } from "express"

interface Asset {
  readonly type: string
  readonly body: Buffer
  readonly gzip: Buffer
}

/** The addresses of the website's static files, each named after a hash of its content. */
export interface AssetPaths {
  readonly leafletJs: string
  readonly leafletCss: string
  readonly siteJs: string
}

/**
 * The website's static files, served by the server itself (no CDN): Leaflet from its npm package
 * and the site's own script. Read once; each address carries a hash of the content, so that a
 * browser may keep it a year, and its gzip is made once, so that a phone loads about 45 KB of
 * script rather than 150 KB.
 */
export class WebsiteAssets {
  readonly paths: AssetPaths
  private readonly byPath = new Map<string, Asset>()

  constructor() {
    const require = createRequire(import.meta.url)
    const add = (name: string, ext: string, type: string, body: Buffer): string => {
      const path = `/assets/${name}-${createHash("sha256").update(body).digest("hex").slice(0, 12)}.${ext}`
      this.byPath.set(path, { type, body, gzip: gzipSync(body, { level: 9 }) })
      return path
    }
    this.paths = {
      leafletJs: add("leaflet", "js", "text/javascript; charset=utf-8", readFileSync(require.resolve("leaflet/dist/leaflet.js"))),
      leafletCss: add("leaflet", "css", "text/css; charset=utf-8", readFileSync(require.resolve("leaflet/dist/leaflet.css"))),
      siteJs: add("site", "js", "text/javascript; charset=utf-8", readFileSync(new URL("../assets/site.js", import.meta.url)))
    }
  }

  /** Answers `path` when it is one of the files (true), else leaves the response alone (false). */
  serve(path: string, req: Request, res: Response): boolean {
    const asset = this.byPath.get(path)
    if (asset === undefined) return false
    const gzip = /\bgzip\b/.test(req.get("accept-encoding") ?? "")
    res
      .status(200)
      .set({
        "Content-Type": asset.type,
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
        Vary: "Accept-Encoding",
        ...(gzip ? { "Content-Encoding": "gzip" } : {})
      })
      .send(gzip ? asset.gzip : asset.body)
    return true
  }
}
