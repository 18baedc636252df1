import { CURRENCIES } from "../../model/Locale.js"
import type { IndexRecord } from "../IndexRecord.js"
import type { RoadStop } from "../../road/roadStops.js"
import { AS_JSON, decodeShown, isCompact, ShownEncoder, type ShownTuple, textOfCodes } from "./shownCodec.js"

// Core declares no platform: these two exist in Node and in browsers alike.
declare const TextEncoder: { new (): { encode(s: string): Uint8Array } }
declare const TextDecoder: { new (): { decode(b: Uint8Array): string } }
const utf8 = new TextEncoder()
const fromUtf8 = new TextDecoder()

/**
 * A slot's `traits`: what the search loop reads of a trip besides its waypoints, in one 32-bit word
 * (4 bytes a trip where seven byte columns took 7, and one cache line for a candidate met at
 * random, not seven). Measured in one index, the other layout built beside it and switched pass by
 * pass: with the word as the fresh array, the matcher x1.04 (heavy mix) and x1.05-1.10 (wide); with
 * the byte columns as the fresh arrays, x0.99-1.01 (heavy) and x1.00 (dense). Where an array lies
 * in memory weighs as much as its layout (d27d03e; docs/PERFORMANCE.md, Measuring on this
 * machine). Bit 0: the slot is alive; bits 1-4: the flags; then the booking type (2 bits), the
 * driver's experience and the car's comfort stars (3 each), the currency (5) and the seats left (8).
 */
export const ALIVE = 1
export const FLAG_AUTO = 2
export const FLAG_SHORT = 4
export const FLAG_PHOTO = 8
/** The trip has stops along the road among its stops (docs/API.md, Along the road). */
export const FLAG_ROAD = 16
export const bookingTypeOf = (traits: number): number => (traits >>> 5) & 3
export const experienceOf = (traits: number): number => (traits >>> 7) & 7
export const comfortOf = (traits: number): number => (traits >>> 10) & 7
export const currencyOf = (traits: number): number => (traits >>> 13) & 31
export const seatsLeftOf = (traits: number): number => traits >>> 18
export const BOOKING_TYPES = ["online", "onboard", "no_booking"] as const
export const NO_BOOKING = 2

// Every array lives in a SharedArrayBuffer, so that the worker threads of a process search the one
// copy the writer keeps (see `IndexImage`). Untouched pages of a fresh buffer are not resident, so
// the doubling headroom costs address space, not memory.
export const sharedU8 = (n: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(n))
export const sharedU16 = (n: number): Uint16Array => new Uint16Array(new SharedArrayBuffer(2 * n))
export const sharedI16 = (n: number): Int16Array => new Int16Array(new SharedArrayBuffer(2 * n))
export const sharedI32 = (n: number): Int32Array => new Int32Array(new SharedArrayBuffer(4 * n))
export const sharedF64 = (n: number): Float64Array => new Float64Array(new SharedArrayBuffer(8 * n))

/** `a` if it holds `n` entries, else a copy twice as large (at least `n`), in shared memory. */
const grow = <A extends Uint8Array | Uint16Array | Int16Array | Int32Array | Float64Array>(a: A, n: number, make: (n: number) => A): A => {
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
  : per === "along" ? counts.alongs
  : per === "meeting point" ? counts.mps
  : per === "meeting point pair" ? 2 * counts.mps
  : per === "char" ? counts.idChars
  : per === "shownByte" ? counts.shownBytes
  : per === "word+1" ? counts.words + 1
  : counts.wordChars

/** The arrays of `TripColumns`, as posted to the threads that only read them. */
export interface ColumnsImage {
  readonly traits: Int32Array
  readonly wpStart: Int32Array
  readonly wpCount: Uint16Array
  readonly seats: Uint8Array
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
  readonly wAlong: Int32Array
  readonly aMp: Int32Array
  readonly aLeg: Uint8Array
  readonly aFrac: Float64Array
  readonly aZone: Int16Array
  readonly mpId: Int32Array
  readonly mpPlace: Float64Array
}

type ColumnName = keyof ColumnsImage
type Column = Uint8Array | Uint16Array | Int16Array | Int32Array | Float64Array

/** How many entries of a column are in use, given the counts; and how to allocate one. */
type Per =
  | "slot"
  | "slot+1"
  | "waypoint"
  | "waypoint pair"
  | "along"
  | "meeting point"
  | "meeting point pair"
  | "char"
  | "shownByte"
  | "word+1"
  | "wordChar"
const LAYOUT: ReadonlyArray<readonly [ColumnName, Per, (n: number) => Column]> = [
  ["traits", "slot", sharedI32],
  ["wpStart", "slot", sharedI32],
  ["wpCount", "slot", sharedU16],
  ["seats", "slot", sharedU8],
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
  ["wAlong", "waypoint", sharedI32],
  ["aMp", "along", sharedI32],
  ["aLeg", "along", sharedU8],
  ["aFrac", "along", sharedF64],
  ["aZone", "along", sharedI16],
  ["mpId", "meeting point", sharedI32],
  ["mpPlace", "meeting point pair", sharedF64]
]

/** The counts that say how much of each column is in use. */
export interface ColumnCounts {
  readonly slots: number
  readonly waypoints: number
  readonly alongs: number
  readonly mps: number
  readonly idChars: number
  readonly shownBytes: number
  readonly words: number
  readonly wordChars: number
}

/** `x` is a whole number that `bits` bits hold. */
const fits = (x: number, bits: number): boolean => Number.isInteger(x) && x >= 0 && x < 1 << bits

/** A live slot's `traits` for `r`; a value without room there is refused before anything is written. */
const traitsOf = (r: IndexRecord, road: boolean): number => {
  const currency = CURRENCIES.indexOf(r.currency)
  const bookingType = BOOKING_TYPES.indexOf(r.bookingType)
  if (!(fits(currency, 5) && fits(bookingType, 2) && fits(r.experience, 3) && fits(r.comfortStars, 3) && fits(r.seatsLeft, 8))) {
    throw new RangeError(`TripIndex: trip ${r.id} has a currency, booking type, experience, comfort or seats left the index cannot hold`)
  }
  return (
    ALIVE |
    (r.autoBooking ? FLAG_AUTO : 0) |
    (r.short ? FLAG_SHORT : 0) |
    (r.hasPhoto ? FLAG_PHOTO : 0) |
    (road ? FLAG_ROAD : 0) |
    (bookingType << 5) |
    (r.experience << 7) |
    (r.comfortStars << 10) |
    (currency << 13) |
    (r.seatsLeft << 18)
  )
}

/**
 * Every trip of the index in flat typed arrays, no object per trip or waypoint: per trip slot
 * (`slots` of them, dead ones included until the next renumbering), per waypoint (`waypoints`,
 * legs stored on their first waypoint) and per stop along the road (`alongs`). A trip's waypoints
 * are `wpCount[slot]` from `wpStart[slot]`; the stops along the road of its leg k are those from
 * `wAlong[w]` to `wAlong[w + 1]` (w its waypoint k; at the last waypoint, the end of the trip's),
 * in road order, each at `aFrac` of its leg `aLeg`, its place its meeting point's (`aMp`, an entry
 * of the meeting point table `mpId`/`mpPlace`, which the stops of 14 million trips' roads share
 * among some tens of thousands), its instant the leg's prorated one (`stopUtc`) and its zone's
 * offset `aZone` minutes. A trip's id is its UTF-16 code units
 * in `idChars`, from `idStart[slot]` to `idStart[slot + 1]`; what a search shows of it beyond the
 * numbers (`IndexRecord.shown`) is `shownBytes` from `shownStart[slot]` to `shownStart[slot + 1]`,
 * in `shownCodec`'s compact form, its repeated texts numbers of the word table (word `n` is
 * `wordChars` from `wordStart[n]` to `wordStart[n + 1]`, appended only). Fields are public: the grid, the
 * renumbering and the search loop read them directly, as a struct of arrays.
 *
 * Only the writer appends. A reader built by `attach` sees a slot once the grid points at it, and
 * the writer fills a slot before that; an array that must grow is copied, which the writer
 * announces as a new image. The meeting point table is appended only: a meeting point that moved
 * is a new entry, so that a stop keeps the place it was worked out from.
 */
export class TripColumns implements ColumnsImage {
  traits = sharedI32(1024)
  wpStart = sharedI32(1024)
  wpCount = sharedU16(1024)
  seats = sharedU8(1024)
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
  wAlong = sharedI32(4096)
  waypoints = 0

  aMp = sharedI32(4096)
  aLeg = sharedU8(4096)
  aFrac = sharedF64(4096)
  aZone = sharedI16(4096)
  alongs = 0

  mpId = sharedI32(256)
  mpPlace = sharedF64(2 * 256)
  mps = 0

  // The words decoded so far (readers and writer), and the writer's word -> number, made when it
  // first adds a word (a restored index has none until then).
  private readonly decoded: Array<string | undefined> = []
  private wordIds: Map<string, number> | undefined
  private readonly shownEncoder = new ShownEncoder()
  // The writer's meeting point id -> its latest table entry, made when it first adds a stop (a
  // restored index has none until then); entries of earlier places of a moved one, by id and place.
  private mpEntry: Map<number, number> | undefined
  private mpEarlier: Map<string, number> | undefined

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
      alongs: this.alongs,
      mps: this.mps,
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
    t.alongs = counts.alongs
    t.mps = counts.mps
    t.words = counts.words
    return t
  }

  /** Whether the trip in `slot` is live: a replaced or removed trip keeps its slot until a renumbering. */
  isAlive(slot: number): boolean {
    return (this.traits[slot]! & ALIVE) !== 0
  }

  /** Marks the trip in `slot` removed, in one store that readers of the shared columns see whole. */
  kill(slot: number): void {
    this.traits[slot] = this.traits[slot]! & ~ALIVE
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

  /**
   * The UTC instant of stop along the road `a` of the trip whose first waypoint is `w0`: its leg's
   * prorated minutes (`offset_min[k] + round((offset_min[k+1] - offset_min[k]) * fraction)`, the
   * offsets whole minutes, so every step is exact), as the store worked them out.
   */
  stopUtc(w0: number, a: number): number {
    const w = w0 + this.aLeg[a]!
    const utc = this.wTime[2 * w]!
    return utc + Math.round(((this.wTime[2 * w + 2]! - utc) / 60_000) * this.aFrac[a]!) * 60_000
  }

  /** The stop along the road `a` of the trip whose first waypoint is `w0`, as a record holds it. */
  roadStop(w0: number, a: number): RoadStop {
    const m = this.aMp[a]!
    const utc = this.stopUtc(w0, a)
    return {
      mp: this.mpId[m]!,
      leg: this.aLeg[a]!,
      fraction: this.aFrac[a]!,
      lat: this.mpPlace[2 * m]!,
      lon: this.mpPlace[2 * m + 1]!,
      offsetMin: (utc - this.wTime[2 * w0]!) / 60_000,
      zoneOffsetMin: this.aZone[a]!
    }
  }

  /** The table entry of meeting point `id` at (lat, lon), added (by the writer) when it is not there. */
  private mpIndex(id: number, lat: number, lon: number): number {
    if (this.mpEntry === undefined) {
      this.mpEntry = new Map()
      for (let m = 0; m < this.mps; m++) this.mpEntry.set(this.mpId[m]!, m)
    }
    const latest = this.mpEntry.get(id)
    if (latest !== undefined && this.mpPlace[2 * latest] === lat && this.mpPlace[2 * latest + 1] === lon) return latest
    const key = `${id},${lat},${lon}`
    if (latest !== undefined) {
      // Trips worked out before and after a meeting point moved, side by side until the store's
      // changes reach them all.
      if (this.mpEarlier === undefined) {
        this.mpEarlier = new Map()
        for (let m = 0; m < this.mps; m++) this.mpEarlier.set(`${this.mpId[m]},${this.mpPlace[2 * m]},${this.mpPlace[2 * m + 1]}`, m)
      }
      const earlier = this.mpEarlier.get(key)
      if (earlier !== undefined) return earlier
    }
    const m = this.mps++
    if (m + 1 > this.mpId.length) {
      this.mpId = grow(this.mpId, m + 1, sharedI32)
      this.mpPlace = grow(this.mpPlace, 2 * (m + 1), sharedF64)
    }
    this.mpId[m] = id
    this.mpPlace[2 * m] = lat
    this.mpPlace[2 * m + 1] = lon
    this.mpEntry.set(id, m)
    this.mpEarlier?.set(key, m)
    return m
  }

  /** Writes `r` into a new slot, its waypoints and stops along the road after the last ones; answers the slot. */
  append(r: IndexRecord): number {
    const road = r.road ?? []
    const traits = traitsOf(r, road.length > 0)
    const slot = this.slots++
    const n = r.lat.length
    const w0 = this.waypoints
    const a0 = this.alongs
    this.ensureSlots(slot + 1)
    this.ensureWaypoints(w0 + n)
    this.ensureAlongs(a0 + road.length)
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
    this.traits[slot] = traits
    this.wpStart[slot] = w0
    this.wpCount[slot] = n
    this.seats[slot] = r.seats
    const last = n - 1
    let a = a0
    for (let k = 0; k <= last; k++) {
      const w = w0 + k
      this.wPlace[2 * w] = r.lat[k]!
      this.wPlace[2 * w + 1] = r.lon[k]!
      const utc = r.departureMs + r.offsetMin[k]! * 60_000
      this.wTime[2 * w] = utc
      this.wTime[2 * w + 1] = utc + r.zoneOffsetMin[k]! * 60_000
      this.wSlot[w] = slot
      this.legPrice[w] = k < last ? r.legPriceMinor[k]! : 0
      this.legDist[w] = k < last ? r.legDistanceM[k]! : 0
      this.wAlong[w] = a
      for (; a - a0 < road.length && road[a - a0]!.leg === k; a++) {
        const stop = road[a - a0]!
        this.aMp[a] = this.mpIndex(stop.mp, stop.lat, stop.lon)
        this.aLeg[a] = k
        this.aFrac[a] = stop.fraction
        this.aZone[a] = stop.zoneOffsetMin
        if (this.aZone[a] !== stop.zoneOffsetMin) throw new RangeError(`trip ${r.id}: a stop's zone offset of ${stop.zoneOffsetMin} minutes is not a 16-bit whole number`)
      }
    }
    this.waypoints = w0 + n
    this.alongs = a
    if (a - a0 !== road.length) throw new RangeError(`trip ${r.id}: its stops along the road are not in leg order`)
    // Stop instants are not kept but worked out again, the way the store did (`stopUtc`).
    for (let s = a0; s < a; s++) {
      const given = r.departureMs + road[s - a0]!.offsetMin * 60_000
      if (this.stopUtc(w0, s) !== given) throw new RangeError(`trip ${r.id}: stop ${s - a0} along the road is not at its leg's prorated minute`)
    }
    return slot
  }

  /** A live slot back as a record, for compaction only (see `legDurationS`). */
  recordOf(slot: number): IndexRecord {
    const w0 = this.wpStart[slot]!
    const n = this.wpCount[slot]!
    const at = (a: Float64Array | Int32Array, from: number, count: number, step = 1, plus = 0) => Array.from({ length: count }, (_, k) => a[step * (from + k) + plus]!)
    const utc = at(this.wTime, w0, n, 2)
    const local = at(this.wTime, w0, n, 2, 1)
    const f = this.traits[slot]!
    const departureMs = utc[0]!
    const road: Array<RoadStop> = []
    for (let a = this.wAlong[w0]!; a < this.wAlong[w0 + n - 1]!; a++) road.push(this.roadStop(w0, a))
    return {
      id: this.idOf(slot),
      departureMs,
      lat: at(this.wPlace, w0, n, 2),
      lon: at(this.wPlace, w0, n, 2, 1),
      offsetMin: utc.map((u) => (u - departureMs) / 60_000),
      zoneOffsetMin: local.map((l, k) => (l - utc[k]!) / 60_000),
      legPriceMinor: at(this.legPrice, w0, n - 1),
      legDistanceM: at(this.legDist, w0, n - 1),
      ...(road.length > 0 ? { road } : {}),
      // Matching never reads durations, so the index does not keep them: a compacted record has none.
      legDurationS: new Array(n - 1).fill(0),
      currency: CURRENCIES[currencyOf(f)]!,
      seats: this.seats[slot]!,
      seatsLeft: seatsLeftOf(f),
      autoBooking: (f & FLAG_AUTO) !== 0,
      bookingType: BOOKING_TYPES[bookingTypeOf(f)]!,
      short: (f & FLAG_SHORT) !== 0,
      hasPhoto: (f & FLAG_PHOTO) !== 0,
      experience: experienceOf(f),
      comfortStars: comfortOf(f),
      ...(this.shownStart[slot + 1]! > this.shownStart[slot]! ? { shown: utf8.encode(JSON.stringify(this.shownTuple(slot))) } : {})
    }
  }

  private ensureSlots(n: number): void {
    if (n <= this.traits.length && n + 1 <= this.idStart.length && n + 1 <= this.shownStart.length) return
    this.traits = grow(this.traits, n, sharedI32)
    this.wpStart = grow(this.wpStart, n, sharedI32)
    this.wpCount = grow(this.wpCount, n, sharedU16)
    this.seats = grow(this.seats, n, sharedU8)
    this.idStart = grow(this.idStart, Math.max(n, this.traits.length) + 1, sharedI32)
    this.shownStart = grow(this.shownStart, Math.max(n, this.traits.length) + 1, sharedI32)
  }

  private ensureAlongs(n: number): void {
    if (n <= this.aMp.length) return
    this.aMp = grow(this.aMp, n, sharedI32)
    this.aLeg = grow(this.aLeg, n, sharedU8)
    this.aFrac = grow(this.aFrac, n, sharedF64)
    this.aZone = grow(this.aZone, n, sharedI16)
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
    this.wAlong = grow(this.wAlong, n, sharedI32)
  }
}
