import { cellOf } from "./GeoGrid.js"
import { sharedF64, sharedI16, sharedI32, sharedU16, sharedU8, type TripColumns } from "./TripColumns.js"

// `a` reordered, at the same capacity (later appends grow it as before): entry i of the result is
// `a[order[i]]` (gather), or entry `to[i]` is `a[i]` (scatter; -1 drops it). One function per
// array type: a shared generic one goes megamorphic and is several times slower.
const gatherU8 = (a: Uint8Array, order: Int32Array): Uint8Array => {
  const b = sharedU8(a.length)
  for (let i = 0; i < order.length; i++) b[i] = a[order[i]!]!
  return b
}
const gatherI32 = (a: Int32Array, order: Int32Array): Int32Array => {
  const b = sharedI32(a.length)
  for (let i = 0; i < order.length; i++) b[i] = a[order[i]!]!
  return b
}
const gatherU16 = (a: Uint16Array, order: Int32Array): Uint16Array => {
  const b = sharedU16(a.length)
  for (let i = 0; i < order.length; i++) b[i] = a[order[i]!]!
  return b
}
/** Entry `to[i]` is `a[i]` (scatter; -1 drops it), two doubles per entry (`2 * i`, `2 * i + 1`). */
const scatterPairs = (a: Float64Array, to: Int32Array): Float64Array => {
  const b = sharedF64(a.length)
  for (let i = 0; i < to.length; i++) {
    const j = to[i]!
    if (j < 0) continue
    b[2 * j] = a[2 * i]!
    b[2 * j + 1] = a[2 * i + 1]!
  }
  return b
}
const scatterI32 = (a: Int32Array, to: Int32Array): Int32Array => {
  const b = sharedI32(a.length)
  for (let i = 0; i < to.length; i++) if (to[i]! >= 0) b[to[i]!] = a[i]!
  return b
}

/**
 * Variable-length runs per slot (run of slot s: `data` from `start[s]` to `start[s + 1]`), in the
 * new slot order: the runs copied into `into` one after the other, and their new starts.
 */
const gatherRuns = <D extends Uint8Array | Uint16Array>(start: Int32Array, data: D, order: Int32Array, into: D): [Int32Array, D] => {
  const starts = sharedI32(start.length)
  for (let s = 0, at = 0; s < order.length; s++) {
    const from = start[order[s]!]!
    const to = start[order[s]! + 1]!
    into.set(data.subarray(from, to), at)
    at += to - from
    starts[s + 1] = at
  }
  return [starts, into]
}

/**
 * Renumbers the `live` trips of `t` (and their waypoints and stops along the road) in grid-cell order of their first
 * waypoint, then of their last, dropping dead slots, and rewrites `refSlot` (a trip's fixed ref ->
 * its slot) to match. Store order is geographically random, so without this the candidates of one
 * search are scattered over every per-trip array and each costs a cache miss per array read; in
 * cell order they share cache lines. Upserts after a load append and are few.
 */
export const renumberByCell = (t: TripColumns, live: number, refSlot: Int32Array, refs: number): void => {
  // Two stable sorts, by last waypoint's cell and then by first's, so that within an origin cell
  // the trips to one destination are neighbours too: a search by arrival (or a pair scanned
  // from its arrival side) then reads runs as well. Each sorts `cell * span + tiebreak` as
  // doubles (`span`, the slots, more than any tiebreak), and a sort without comparator is native
  // and fast. Exact below 2^53, so for up to 5e9 slots over the grid's 1.6M cells; with 2^32 for
  // `span`, as it was, cells of 0.1 degree (6.5M keys, over 2^21) broke it, and the index lost trips.
  const cellAt = (w: number): number => cellOf(t.wPlace[2 * w]!, t.wPlace[2 * w + 1]!)
  // Passes in old slot order read the per-waypoint arrays sequentially; the others read only
  // small per-slot arrays out of order.
  const span = t.slots
  const firstCell = new Int32Array(t.slots)
  const byLast = new Float64Array(live)
  let n = 0
  for (let s = 0; s < t.slots; s++) {
    if (!t.isAlive(s)) continue
    firstCell[s] = cellAt(t.wpStart[s]!)
    byLast[n++] = cellAt(t.wpStart[s]! + t.wpCount[s]! - 1) * span + s
  }
  byLast.sort()
  const ranked = new Int32Array(n)
  const keys = new Float64Array(n)
  for (let r = 0; r < n; r++) {
    const s = byLast[r]! % span
    ranked[r] = s
    keys[r] = firstCell[s]! * span + r
  }
  keys.sort()
  const order = new Int32Array(n)
  const newSlot = new Int32Array(t.slots).fill(-1)
  const start = sharedI32(t.wpStart.length)
  const wSlot = sharedI32(t.wSlot.length)
  let waypoints = 0
  for (let s = 0; s < n; s++) {
    const old = ranked[keys[s]! % span]!
    order[s] = old
    newSlot[old] = s
    start[s] = waypoints
    for (const end = waypoints + t.wpCount[old]!; waypoints < end; ) wSlot[waypoints++] = s
  }
  // Old waypoint -> new one, -1 for those of dead slots.
  const newW = new Int32Array(t.waypoints).fill(-1)
  for (let s = 0; s < t.slots; s++) {
    const to = newSlot[s]!
    if (to < 0) continue
    for (let w = t.wpStart[s]!, end = w + t.wpCount[s]!, k = start[to]!; w < end; w++) newW[w] = k++
  }
  for (let r = 0; r < refs; r++) refSlot[r] = newSlot[refSlot[r]!]!
  ;[t.idStart, t.idChars] = gatherRuns(t.idStart, t.idChars, order, sharedU16(t.idChars.length))
  ;[t.shownStart, t.shownBytes] = gatherRuns(t.shownStart, t.shownBytes, order, sharedU8(t.shownBytes.length))
  t.traits = gatherI32(t.traits, order)
  t.wpCount = gatherU16(t.wpCount, order)
  t.seats = gatherU8(t.seats, order)
  t.slots = n
  // Waypoints are scattered rather than gathered: random stores do not stall like random loads.
  t.wPlace = scatterPairs(t.wPlace, newW)
  t.wTime = scatterPairs(t.wTime, newW)
  t.legPrice = scatterI32(t.legPrice, newW)
  t.legDist = scatterI32(t.legDist, newW)
  t.wSlot = wSlot
  t.waypoints = waypoints
  // The stops along the road in the new slot order, each trip's run copied whole (its meeting
  // point entries unchanged), and each waypoint's start of its leg's stops moved with them.
  const aMp = sharedI32(t.aMp.length)
  const aLeg = sharedU8(t.aLeg.length)
  const aFrac = sharedF64(t.aFrac.length)
  const aZone = sharedI16(t.aZone.length)
  const wAlong = sharedI32(t.wAlong.length)
  let alongs = 0
  for (let s = 0; s < n; s++) {
    const old = order[s]!
    // `wpStart` and `wAlong` are still the old order's, `wpCount` already the new one's.
    const v0 = t.wpStart[old]!
    const count = t.wpCount[s]!
    const from = t.wAlong[v0]!
    const to = t.wAlong[v0 + count - 1]!
    const w0 = start[s]!
    for (let k = 0; k < count; k++) wAlong[w0 + k] = t.wAlong[v0 + k]! - from + alongs
    aMp.set(t.aMp.subarray(from, to), alongs)
    aLeg.set(t.aLeg.subarray(from, to), alongs)
    aFrac.set(t.aFrac.subarray(from, to), alongs)
    aZone.set(t.aZone.subarray(from, to), alongs)
    alongs += to - from
  }
  t.wAlong = wAlong
  t.aMp = aMp
  t.aLeg = aLeg
  t.aFrac = aFrac
  t.aZone = aZone
  t.alongs = alongs
  t.wpStart = start
}
