// A thread that only reads a TripIndex's shared arrays, for sharedIndex.test.ts: it adopts each
// image it is given and answers searches; `hammer` searches one request over and over until told
// to stop, counting the answers in which a trip appears twice.
import { TripSearcher } from "@tripsearch/core"
import { parentPort } from "node:worker_threads"

let searcher
let version = -1
let hammering = false
const duplicates = (result) => {
  const ids = result.page.map((h) => `${h.id}_${h.i}_${h.j}`)
  return new Set(ids).size !== ids.length ? 1 : 0
}
parentPort.on("message", (m) => {
  if (m.image !== undefined) {
    if (m.image.version > version) {
      searcher = TripSearcher.over(m.image)
      version = m.image.version
    }
    if (!m.quiet) parentPort.postMessage({ adopted: version })
  } else if (m.search !== undefined) {
    parentPort.postMessage({ id: m.id, result: searcher.search(m.search) })
  } else if (m.hammer !== undefined) {
    hammering = true
    let searches = 0
    let bad = 0
    const loop = () => {
      for (let k = 0; k < 20; k++, searches++) bad += duplicates(searcher.search(m.hammer))
      if (hammering) setImmediate(loop)
      else parentPort.postMessage({ searches, bad })
    }
    loop()
  } else if (m.stop) hammering = false
})
