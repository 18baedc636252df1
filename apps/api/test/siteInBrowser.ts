import { type Browser, chromium } from "playwright-core"
import { freePort } from "@tripsearch/store-tests/free-port"
import { CHROMIUM, CHROMIUM_FLAGS } from "../scripts/chromium.mjs"
import { type ApiServer, createServer } from "../src/createServer.js"

/** The map tiles' address: nothing listens there, so the map draws its road and labels without tiles unless a test answers them through the browser's routes. */
export const TILES = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png"

/**
 * The API server with its website over the store at `dbPath`, listening on a free port of
 * 127.0.0.1 (its `base`, which its `_front` links name), and Debian's Chromium beside it, started
 * together.
 */
export const startSiteAndBrowser = async (dbPath: string): Promise<{ readonly api: ApiServer; readonly browser: Browser; readonly base: string }> => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const [api, browser] = await Promise.all([
    createServer({
      config: {
        dbPath,
        publicBaseUrl: base,
        websiteBaseUrl: base,
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        metrics: false,
        mapTiles: { url: TILES, attribution: "Test tiles" }
      },
      logger: { info: () => {}, error: () => {} }
    }),
    chromium.launch({ executablePath: CHROMIUM, args: ["--headless", ...CHROMIUM_FLAGS] })
  ])
  await api.listen(port, "127.0.0.1")
  return { api, browser, base }
}
