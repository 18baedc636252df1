import { CURRENCIES } from "../../model/Locale.js"
import type { IndexRecord } from "../IndexRecord.js"
import { AS_JSON, decodeShown, isCompact, ShownEncoder, type ShownTuple, textOfCodes } from "./shownCodec.js"

// Core declares no platform: these two exist in Node and in browsers alike.
declare const TextEncoder: { new (): { encode(s: string): Uint8Array } }
declare const TextDecoder: { new (): { decode(b: Uint8Array): string } }
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

export const FLAG_AUTO = 1
export const FLAG_SHORT = 2
export const FLAG_PHOTO = 4
/** The trip has stops along the road among its stops (docs/API.md, Along the road). */
export const FLAG_ROAD = 8
export const BOOKING_TYPES = ["online", "onboard", "no_booking"] as const
export const NO_BOOKING = 2

// Every array lives in a SharedArrayBuffer, so that the worker threads of a process search the one
// copy the writer keeps (see `IndexImage`). Untouched pages of a fresh buffer are not resident, so
// the doubling headroom costs address space, not memory.
export const sharedU8 = (n: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(n))
export const sharedU16 = (n: number): Uint16Array => new Uint16Array(new SharedArrayBuffer(2 * n))
export const sharedI32 = (n: number): Int32Array => new Int32Array(new SharedArrayBuffer(4 * n))
export const sharedF64 = (n: number): Float64Array => new Float64Array(new SharedArrayBuffer(8 * n))

/** `a` if it holds `n` entries, else a copy twice as large (at least `n`), in shared memory. */
const grow = <A extends Uint8Array | Uint16Array | Int32Array | Float64Array>(a: A, n: number, make: (n: number) => A): A => {
  if (n <= a.length) return a
  const b = make(Math.max(n, a.length * 2))
  b.set(a)
  return b
}
export const growI32 = (a: Int32Array, n: number): Int32Array => grow(a, n, (k) => new Int32Array(k))

const used = (per: Per, counts: ColumnCounts): number =>
  per === "slot" ? counts.slots
  : per === "slot+1" ? counts.slots + 1
  : per === "waypoint" ? counts.waypoints
  : per === "waypoint pair" ? 2 * counts.waypoints
  : per === "way" ? counts.ways
  : per === "way pair" ? 2 * counts.ways
  : per === "char" ? counts.idChars
  : per === "shownByte" ? counts.shownBytes
  : per === "word+1" ? counts.words + 1
  : counts.wordChars

/** The arrays of `TripColumns`, as posted to the threads that only read them. */
export interface ColumnsImage {
  readonly alive: Uint8Array
  readonly wpStart: Int32Array
  readonly wpCount: Uint16Array
  readonly currency: Uint8Array
  readonly seats: Uint8Array
  readonly seatsLeft: Uint8Array
  readonly flags: Uint8Array
  readonly bookingType: Uint8Array
  readonly experience: Uint8Array
  readonly comfort: Uint8Array
  readonly idStart: Int32Array
  readonly idChars: Uint16Array
  readonly shownStart: Int32Array
  readonly shownBytes: Uint8Array
  readonly wordStart: Int32Array
  readonly wordChars: Uint16Array
  readonly wPlace: Float64Array
  readonly wTime: Float64Array
  readonly wSlot: Int32Array
  readonly legPrice: Int32Array
  readonly legDist: Int32Array
  readonly wMp: Int32Array
  readonly wLeg: Uint8Array
  readonly wFrac: Float64Array
  readonly wayStart: Int32Array
  readonly wayCount: Uint8Array
  readonly wayPlace: Float64Array
  readonly wayIdx: Uint16Array
}

type ColumnName = keyof ColumnsImage
type Column = Uint8Array | Uint16Array | Int32Array | Float64Array

/** How many entries of a column are in use, given the counts; and how to allocate one. */
type Per = "slot" | "slot+1" | "waypoint" | "waypoint pair" | "way" | "way pair" | "char" | "shownByte" | "word+1" | "wordChar"
const LAYOUT: ReadonlyArray<readonly [ColumnName, Per, (n: number) => Column]> = [
  ["alive", "slot", sharedU8],
  ["wpStart", "slot", sharedI32],
  ["wpCount", "slot", sharedU16],
  ["currency", "slot", sharedU8],
  ["seats", "slot", sharedU8],
  ["seatsLeft", "slot", sharedU8],
  ["flags", "slot", sharedU8],
  ["bookingType", "slot", sharedU8],
  ["experience", "slot", sharedU8],
  ["comfort", "slot", sharedU8],
  ["idStart", "slot+1", sharedI32],
  ["idChars", "char", sharedU16],
  ["shownStart", "slot+1", sharedI32],
  ["shownBytes", "shownByte", sharedU8],
  ["wordStart", "word+1", sharedI32],
  ["wordChars", "wordChar", sharedU16],
  ["wPlace", "waypoint pair", sharedF64],
  ["wTime", "waypoint pair", sharedF64],
  ["wSlot", "waypoint", sharedI32],
  ["legPrice", "waypoint", sharedI32],
  ["legDist", "waypoint", sharedI32],
  ["wMp", "waypoint", sharedI32],
  ["wLeg", "waypoint", sharedU8],
  ["wFrac", "waypoint", sharedF64],
  ["wayStart", "slot", sharedI32],
  ["wayCount", "slot", sharedU8],
  ["wayPlace", "way pair", sharedF64],
  ["wayIdx", "way", sharedU16]
]

/** The counts that say how much of each column is in use. */
export interface ColumnCounts {
  readonly slots: number
  readonly waypoints: number
  readonly ways: number
  readonly idChars: number
  readonly shownBytes: number
  readonly words: number
  readonly wordChars: number
}

/**
 * Every trip of the index in flat typed arrays, no object per trip or waypoint: per trip slot
 * (`slots` of them, dead ones included until the next renumbering) and per stop, in road order
 * (`waypoints`: a trip's waypoints and, on a trip flagged FLAG_ROAD, its stops along the road
 * between them), legs stored on their first waypoint. A stop's `wMp` is its meeting point's id
 * along the road and 0 at a waypoint; its position is `wLeg + wFrac` (waypoint k < n at (k, 0),
 * the last at (n - 1, 1)), so a waypoint's index is `wLeg + wFrac` too. A trip's id is its UTF-16 code units
 * in `idChars`, from `idStart[slot]` to `idStart[slot + 1]`; what a search shows of it beyond the
 * numbers (`IndexRecord.shown`) is `shownBytes` from `shownStart[slot]` to `shownStart[slot + 1]`,
 * in `shownCodec`'s compact form, its repeated texts numbers of the word table (word `n` is
 * `wordChars` from `wordStart[n]` to `wordStart[n + 1]`, appended only). Fields are public: the grid, the
 * renumbering and the search loop read them directly, as a struct of arrays.
 *
 * Only the writer appends. A reader built by `attach` sees a slot once the grid points at it, and
 * the writer fills a slot before that; an array that must grow is copied, which the writer
 * announces as a new image.
 */
export class TripColumns implements ColumnsImage {
  alive = sharedU8(1024)
  wpStart = sharedI32(1024)
  wpCount = sharedU16(1024)
  currency = sharedU8(1024)
  seats = sharedU8(1024)
  seatsLeft = sharedU8(1024)
  flags = sharedU8(1024)
  bookingType = sharedU8(1024)
  experience = sharedU8(1024)
  comfort = sharedU8(1024)
  idStart = sharedI32(1025)
  idChars = sharedU16(32 * 1024)
  shownStart = sharedI32(1025)
  shownBytes = sharedU8(64 * 1024)
  wordStart = sharedI32(1024)
  wordChars = sharedU16(16 * 1024)
  words = 0
  slots = 0

  wPlace = sharedF64(2 * 4096)
  wTime = sharedF64(2 * 4096)
  wSlot = sharedI32(4096)
  legPrice = sharedI32(4096)
  legDist = sharedI32(4096)
  wMp = sharedI32(4096)
  wLeg = sharedU8(4096)
  wFrac = sharedF64(4096)
  waypoints = 0

  // A trip with stops along the road has its waypoints once more, alone (`wayStart[slot]` to
  // `+ wayCount[slot]`, -1 for a trip without), each with its place among all the stops
  // (`wayIdx`): the waypoints' own rule and its fast paths (`NearHits.segmentOf`) read them as
  // they read a trip without stops along the road, and decide most such trips that way.
  wayStart = sharedI32(1024)
  wayCount = sharedU8(1024)
  wayPlace = sharedF64(2 * 1024)
  wayIdx = sharedU16(1024)
  ways = 0


  // The words decoded so far (readers and writer), and the writer's word -> number, made when it
  // first adds a word (a restored index has none until then).
  private readonly decoded: Array<string | undefined> = []
  private wordIds: Map<string, number> | undefined
  private readonly shownEncoder = new ShownEncoder()

  /** A reader over the arrays of a writer's image (in this thread or another). */
  static attach(image: ColumnsImage): TripColumns {
    // Assigned over the fields a constructed instance already has, the reader keeps the writer's
    // hidden class: properties added one by one to a bare object would leave it in dictionary
    // mode, and every column read of the search loop a slow lookup (measured: several times slower).
    return Object.assign(new TripColumns(), image)
  }

  image(): ColumnsImage {
    return Object.fromEntries(LAYOUT.map(([name]) => [name, this[name]])) as unknown as ColumnsImage
  }

  /** The counts of the entries in use. */
  counts(): ColumnCounts {
    return {
      slots: this.slots,
      waypoints: this.waypoints,
      ways: this.ways,
      idChars: this.idStart[this.slots]!,
      shownBytes: this.shownStart[this.slots]!,
      words: this.words,
      wordChars: this.wordStart[this.words]!
    }
  }

  /** The bytes in use of every column, by name, in a fixed order (views: copy them before the next change). */
  usedBytes(): Array<readonly [string, Uint8Array]> {
    const counts = this.counts()
    return LAYOUT.map(([name, per]) => {
      const column = this[name] as Column
      const n = used(per, counts)
      return [name, new Uint8Array(column.buffer, column.byteOffset, n * column.BYTES_PER_ELEMENT)] as const
    })
  }

  /**
   * Columns of `counts` entries (and room for a quarter more), each filled by `fill` with the bytes
   * `usedBytes` gave under its name.
   */
  static restore(counts: ColumnCounts, fill: (name: string, into: Uint8Array) => void): TripColumns {
    const t = new TripColumns()
    for (const [name, per, make] of LAYOUT) {
      const n = used(per, counts)
      const column = make(Math.max(1024, Math.ceil(n * 1.25)))
      fill(name, new Uint8Array(column.buffer, 0, n * column.BYTES_PER_ELEMENT))
      ;(t as unknown as Record<string, Column>)[name] = column
    }
    t.slots = counts.slots
    t.waypoints = counts.waypoints
    t.ways = counts.ways
    t.words = counts.words
    return t
  }

  /** The id of the trip in `slot`. */
  idOf(slot: number): string {
    return textOfCodes(this.idChars, this.idStart[slot]!, this.idStart[slot + 1]!)
  }

  /** Word `n` of the word table. */
  wordOf(n: number): string {
    let word = this.decoded[n]
    if (word === undefined) {
      word = textOfCodes(this.wordChars, this.wordStart[n]!, this.wordStart[n + 1]!)
      this.decoded[n] = word
    }
    return word
  }

  /** The number of `word` in the word table, added (by the writer) when it is not there. */
  private wordId(word: string): number {
    if (this.wordIds === undefined) {
      this.wordIds = new Map()
      for (let n = 0; n < this.words; n++) this.wordIds.set(this.wordOf(n), n)
    }
    const known = this.wordIds.get(word)
    if (known !== undefined) return known
    const n = this.words
    const c0 = this.wordStart[n]!
    if (n + 2 > this.wordStart.length) this.wordStart = grow(this.wordStart, n + 2, sharedI32)
    if (c0 + word.length > this.wordChars.length) this.wordChars = grow(this.wordChars, c0 + word.length, sharedU16)
    for (let k = 0; k < word.length; k++) this.wordChars[c0 + k] = word.charCodeAt(k)
    this.wordStart[n + 1] = c0 + word.length
    this.words = n + 1
    this.wordIds.set(word, n)
    this.decoded[n] = word
    return n
  }

  /** The shown tuple of `slot`, or undefined when the index holds none for it. */
  shownTuple(slot: number): ShownTuple | undefined {
    const from = this.shownStart[slot]!
    const to = this.shownStart[slot + 1]!
    if (to <= from) return undefined
    if (isCompact(this.shownBytes, from)) return decodeShown(this.shownBytes, from, (n) => this.wordOf(n))
    return JSON.parse(fromUtf8.decode(this.shownBytes.slice(from + 1, to))) as ShownTuple
  }

  /** The bytes the index keeps of a record's `shown` (the store's JSON): compact when it fits, else the JSON behind `AS_JSON`. */
  private shownOf(shown: Uint8Array): Uint8Array {
    const compact = this.shownEncoder.encode(JSON.parse(fromUtf8.decode(shown)) as ShownTuple, (word) => this.wordId(word))
    if (compact !== undefined) return compact
    const kept = new Uint8Array(shown.length + 1)
    kept[0] = AS_JSON
    kept.set(shown, 1)
    return kept
  }

  /** Writes `r` into a new slot, its waypoints after the last ones; answers the slot. */
  append(r: IndexRecord): number {
    const slot = this.slots++
    const road = r.road ?? []
    const n = r.lat.length + road.length
    const w0 = this.waypoints
    this.ensureSlots(slot + 1)
    this.ensureWaypoints(w0 + n)
    const c0 = this.idStart[slot]!
    this.ensureIdChars(c0 + r.id.length)
    for (let k = 0; k < r.id.length; k++) this.idChars[c0 + k] = r.id.charCodeAt(k)
    this.idStart[slot + 1] = c0 + r.id.length
    const b0 = this.shownStart[slot]!
    const shown = r.shown === undefined ? undefined : this.shownOf(r.shown)
    if (shown !== undefined) {
      this.ensureShownBytes(b0 + shown.length)
      this.shownBytes.set(shown, b0)
    }
    this.shownStart[slot + 1] = b0 + (shown?.length ?? 0)
    this.alive[slot] = 1
    this.wpStart[slot] = w0
    this.wpCount[slot] = n
    this.currency[slot] = CURRENCIES.indexOf(r.currency)
    this.seats[slot] = r.seats
    this.seatsLeft[slot] = r.seatsLeft
    this.flags[slot] = (r.autoBooking ? FLAG_AUTO : 0) | (r.short ? FLAG_SHORT : 0) | (r.hasPhoto ? FLAG_PHOTO : 0) | (road.length > 0 ? FLAG_ROAD : 0)
    this.bookingType[slot] = BOOKING_TYPES.indexOf(r.bookingType)
    this.experience[slot] = r.experience
    this.comfort[slot] = r.comfortStars
    const last = r.lat.length - 1
    let w = w0
    let s = 0
    for (let k = 0; k <= last; k++) {
      this.wPlace[2 * w] = r.lat[k]!
      this.wPlace[2 * w + 1] = r.lon[k]!
      const utc = r.departureMs + r.offsetMin[k]! * 60_000
      this.wTime[2 * w] = utc
      this.wTime[2 * w + 1] = utc + r.zoneOffsetMin[k]! * 60_000
      this.wSlot[w] = slot
      this.legPrice[w] = k < last ? r.legPriceMinor[k]! : 0
      this.legDist[w] = k < last ? r.legDistanceM[k]! : 0
      this.wMp[w] = 0
      this.wLeg[w] = k < last ? k : last - 1
      this.wFrac[w] = k < last ? 0 : 1
      w++
      for (; s < road.length && road[s]!.leg === k; s++, w++) {
        const stop = road[s]!
        this.wPlace[2 * w] = stop.lat
        this.wPlace[2 * w + 1] = stop.lon
        const utc = r.departureMs + stop.offsetMin * 60_000
        this.wTime[2 * w] = utc
        this.wTime[2 * w + 1] = utc + stop.zoneOffsetMin * 60_000
        this.wSlot[w] = slot
        this.legPrice[w] = 0
        this.legDist[w] = 0
        this.wMp[w] = stop.mp
        this.wLeg[w] = stop.leg
        this.wFrac[w] = stop.fraction
      }
    }
    this.waypoints = w0 + n
    if (road.length > 0) {
      const v0 = this.ways
      this.ensureWays(v0 + last + 1)
      this.wayStart[slot] = v0
      this.wayCount[slot] = last + 1
      for (let k = 0, w = w0; w < w0 + n; w++) {
        if (this.wMp[w] !== 0) continue
        this.wayPlace[2 * (v0 + k)] = this.wPlace[2 * w]!
        this.wayPlace[2 * (v0 + k) + 1] = this.wPlace[2 * w + 1]!
        this.wayIdx[v0 + k++] = w - w0
      }
      this.ways = v0 + last + 1
    } else {
      this.wayStart[slot] = -1
      this.wayCount[slot] = 0
    }
    return slot
  }

  /** A live slot back as a record, for compaction only (see `legDurationS`). */
  recordOf(slot: number): IndexRecord {
    const w0 = this.wpStart[slot]!
    const all = this.wpCount[slot]!
    const stops: Array<number> = []
    const along: Array<number> = []
    for (let w = w0; w < w0 + all; w++) (this.wMp[w] === 0 ? stops : along).push(w)
    const n = stops.length
    const pick = (a: Float64Array | Int32Array, ws: ReadonlyArray<number>) => ws.map((w) => a[w]!)
    const utc = stops.map((w) => this.wTime[2 * w]!)
    const local = stops.map((w) => this.wTime[2 * w + 1]!)
    const f = this.flags[slot]!
    const departureMs = utc[0]!
    return {
      id: this.idOf(slot),
      departureMs,
      lat: stops.map((w) => this.wPlace[2 * w]!),
      lon: stops.map((w) => this.wPlace[2 * w + 1]!),
      offsetMin: utc.map((u) => (u - departureMs) / 60_000),
      zoneOffsetMin: local.map((l, k) => (l - utc[k]!) / 60_000),
      legPriceMinor: pick(this.legPrice, stops.slice(0, n - 1)),
      legDistanceM: pick(this.legDist, stops.slice(0, n - 1)),
      ...(along.length > 0
        ? {
            road: along.map((w) => ({
              mp: this.wMp[w]!,
              leg: this.wLeg[w]!,
              fraction: this.wFrac[w]!,
              lat: this.wPlace[2 * w]!,
              lon: this.wPlace[2 * w + 1]!,
              offsetMin: (this.wTime[2 * w]! - departureMs) / 60_000,
              zoneOffsetMin: (this.wTime[2 * w + 1]! - this.wTime[2 * w]!) / 60_000
            }))
          }
        : {}),
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
      comfortStars: this.comfort[slot]!,
      ...(this.shownStart[slot + 1]! > this.shownStart[slot]! ? { shown: utf8.encode(JSON.stringify(this.shownTuple(slot))) } : {})
    }
  }

  private ensureSlots(n: number): void {
    if (n <= this.alive.length && n + 1 <= this.idStart.length && n + 1 <= this.shownStart.length) return
    this.alive = grow(this.alive, n, sharedU8)
    this.wpStart = grow(this.wpStart, n, sharedI32)
    this.wpCount = grow(this.wpCount, n, sharedU16)
    this.currency = grow(this.currency, n, sharedU8)
    this.seats = grow(this.seats, n, sharedU8)
    this.seatsLeft = grow(this.seatsLeft, n, sharedU8)
    this.flags = grow(this.flags, n, sharedU8)
    this.bookingType = grow(this.bookingType, n, sharedU8)
    this.experience = grow(this.experience, n, sharedU8)
    this.comfort = grow(this.comfort, n, sharedU8)
    this.wayStart = grow(this.wayStart, n, sharedI32)
    this.wayCount = grow(this.wayCount, n, sharedU8)
    this.idStart = grow(this.idStart, Math.max(n, this.alive.length) + 1, sharedI32)
    this.shownStart = grow(this.shownStart, Math.max(n, this.alive.length) + 1, sharedI32)
  }

  private ensureWays(n: number): void {
    if (n <= this.wayIdx.length) return
    this.wayPlace = grow(this.wayPlace, 2 * n, sharedF64)
    this.wayIdx = grow(this.wayIdx, n, sharedU16)
  }

  private ensureShownBytes(n: number): void {
    if (n > this.shownBytes.length) this.shownBytes = grow(this.shownBytes, n, sharedU8)
  }

  private ensureIdChars(n: number): void {
    if (n <= this.idChars.length) return
    this.idChars = grow(this.idChars, n, sharedU16)
  }

  private ensureWaypoints(n: number): void {
    if (n <= this.wSlot.length) return
    this.wPlace = grow(this.wPlace, 2 * n, sharedF64)
    this.wTime = grow(this.wTime, 2 * n, sharedF64)
    this.wSlot = grow(this.wSlot, n, sharedI32)
    this.legPrice = grow(this.legPrice, n, sharedI32)
    this.legDist = grow(this.legDist, n, sharedI32)
    this.wMp = grow(this.wMp, n, sharedI32)
    this.wLeg = grow(this.wLeg, n, sharedU8)
    this.wFrac = grow(this.wFrac, n, sharedF64)
  }
}
