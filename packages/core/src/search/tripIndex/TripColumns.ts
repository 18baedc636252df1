import { CURRENCIES } from "../../model/Locale.js"
import type { IndexRecord } from "../IndexRecord.js"

export const FLAG_AUTO = 1
export const FLAG_SHORT = 2
export const FLAG_PHOTO = 4
export const BOOKING_TYPES = ["online", "onboard", "no_booking"] as const
export const NO_BOOKING = 2

const growF64 = (a: Float64Array, n: number) => {
  if (n <= a.length) return a
  const b = new Float64Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}
export const growI32 = (a: Int32Array, n: number) => {
  if (n <= a.length) return a
  const b = new Int32Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}
const growU8 = (a: Uint8Array, n: number) => {
  if (n <= a.length) return a
  const b = new Uint8Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}

/**
 * Every trip of the index in flat typed arrays, no object per trip or waypoint: per trip slot
 * (`slots` of them, dead ones included until the next renumbering) and per waypoint, in trip
 * order (`waypoints`), legs stored on their first waypoint. Fields are public: the grid, the
 * renumbering and the search loop read them directly, as a struct of arrays.
 */
export class TripColumns {
  ids: Array<string> = []
  alive: Uint8Array = new Uint8Array(1024)
  wpStart: Int32Array = new Int32Array(1024)
  wpCount: Uint8Array = new Uint8Array(1024)
  currency: Uint8Array = new Uint8Array(1024)
  seats: Uint8Array = new Uint8Array(1024)
  seatsLeft: Uint8Array = new Uint8Array(1024)
  flags: Uint8Array = new Uint8Array(1024)
  bookingType: Uint8Array = new Uint8Array(1024)
  experience: Uint8Array = new Uint8Array(1024)
  comfort: Uint8Array = new Uint8Array(1024)
  slots = 0

  wLat: Float64Array = new Float64Array(4096)
  wLon: Float64Array = new Float64Array(4096)
  wUtc: Float64Array = new Float64Array(4096)
  wLocal: Float64Array = new Float64Array(4096)
  wSlot: Int32Array = new Int32Array(4096)
  legPrice: Int32Array = new Int32Array(4096)
  legDist: Int32Array = new Int32Array(4096)
  waypoints = 0

  /** Writes `r` into a new slot, its waypoints after the last ones; answers the slot. */
  append(r: IndexRecord): number {
    const slot = this.slots++
    const n = r.lat.length
    const w0 = this.waypoints
    this.ensureSlots(slot + 1)
    this.ensureWaypoints(w0 + n)
    this.ids[slot] = r.id
    this.alive[slot] = 1
    this.wpStart[slot] = w0
    this.wpCount[slot] = n
    this.currency[slot] = CURRENCIES.indexOf(r.currency)
    this.seats[slot] = r.seats
    this.seatsLeft[slot] = r.seatsLeft
    this.flags[slot] = (r.autoBooking ? FLAG_AUTO : 0) | (r.short ? FLAG_SHORT : 0) | (r.hasPhoto ? FLAG_PHOTO : 0)
    this.bookingType[slot] = BOOKING_TYPES.indexOf(r.bookingType)
    this.experience[slot] = r.experience
    this.comfort[slot] = r.comfortStars
    for (let k = 0; k < n; k++) {
      const w = w0 + k
      this.wLat[w] = r.lat[k]!
      this.wLon[w] = r.lon[k]!
      const utc = r.departureMs + r.offsetMin[k]! * 60_000
      this.wUtc[w] = utc
      this.wLocal[w] = utc + r.zoneOffsetMin[k]! * 60_000
      this.wSlot[w] = slot
      this.legPrice[w] = k < n - 1 ? r.legPriceMinor[k]! : 0
      this.legDist[w] = k < n - 1 ? r.legDistanceM[k]! : 0
    }
    this.waypoints = w0 + n
    return slot
  }

  /** A live slot back as a record, for compaction only (see `legDurationS`). */
  recordOf(slot: number): IndexRecord {
    const w0 = this.wpStart[slot]!
    const n = this.wpCount[slot]!
    const range = (a: Float64Array | Int32Array, len: number) => Array.from(a.subarray(w0, w0 + len))
    const utc = range(this.wUtc, n)
    const local = range(this.wLocal, n)
    const f = this.flags[slot]!
    return {
      id: this.ids[slot]!,
      departureMs: utc[0]!,
      lat: range(this.wLat, n),
      lon: range(this.wLon, n),
      offsetMin: utc.map((u) => (u - utc[0]!) / 60_000),
      zoneOffsetMin: local.map((l, k) => (l - utc[k]!) / 60_000),
      legPriceMinor: range(this.legPrice, n - 1),
      legDistanceM: range(this.legDist, n - 1),
      // Matching never reads durations, so the index does not keep them: a compacted record has none.
      legDurationS: new Array(n - 1).fill(0),
      currency: CURRENCIES[this.currency[slot]!]!,
      seats: this.seats[slot]!,
      seatsLeft: this.seatsLeft[slot]!,
      autoBooking: (f & FLAG_AUTO) !== 0,
      bookingType: BOOKING_TYPES[this.bookingType[slot]!]!,
      short: (f & FLAG_SHORT) !== 0,
      hasPhoto: (f & FLAG_PHOTO) !== 0,
      experience: this.experience[slot]!,
      comfortStars: this.comfort[slot]!
    }
  }

  private ensureSlots(n: number): void {
    if (n <= this.alive.length) return
    this.alive = growU8(this.alive, n)
    this.wpStart = growI32(this.wpStart, n)
    this.wpCount = growU8(this.wpCount, n)
    this.currency = growU8(this.currency, n)
    this.seats = growU8(this.seats, n)
    this.seatsLeft = growU8(this.seatsLeft, n)
    this.flags = growU8(this.flags, n)
    this.bookingType = growU8(this.bookingType, n)
    this.experience = growU8(this.experience, n)
    this.comfort = growU8(this.comfort, n)
  }

  private ensureWaypoints(n: number): void {
    if (n <= this.wLat.length) return
    this.wLat = growF64(this.wLat, n)
    this.wLon = growF64(this.wLon, n)
    this.wUtc = growF64(this.wUtc, n)
    this.wLocal = growF64(this.wLocal, n)
    this.wSlot = growI32(this.wSlot, n)
    this.legPrice = growI32(this.legPrice, n)
    this.legDist = growI32(this.legDist, n)
  }
}
