import type { FeedTrip } from "../../model/FeedTrip.js"

/**
 * What a search shows of a trip beyond the numbers the index keeps, in the order `encodeShown`
 * writes it as a JSON array (`IndexRecord.shown`, as the stores keep it).
 */
export type ShownTuple = [
  carId: string,
  make: string,
  model: string,
  comfort: FeedTrip["car"]["comfort"],
  stars: number,
  category: string,
  bookingMode: FeedTrip["booking_mode"],
  viaggioRosa: boolean,
  isComfort: boolean,
  answerDelay: number,
  pictures: ReadonlyArray<string> | null,
  waypoints: ReadonlyArray<readonly [city: string, country: string, address: string | null, meetingPoint: number | null]>,
  durations: ReadonlyArray<number>
]

// The index keeps a shown tuple in one of two forms, told by its first byte. COMPACT: every
// repeated text (make, model, comfort, category, booking mode, city, country, address) as the
// number of a word in the index's word table, the other texts inline, numbers as varints: at 1M
// trips 80 bytes a trip and 8 MB of words, where the JSON form takes 256 bytes a trip. AS_JSON:
// the store's JSON bytes as they are, for a tuple with a value the compact form has no room for
// (a number that is not a whole number in [0, 2^31), a text where none is expected, ...).
export const AS_JSON = 0
const COMPACT = 1

const F_ROSA = 1
const F_COMFORT = 2
const F_PICTURES = 4
const MAX = 2 ** 31

/**
 * The text of UTF-16 code units `codes[from..to)`, a few thousand at a time: one
 * `String.fromCharCode` call per text would overflow the stack past about 100,000 (a feed may
 * carry a text that long).
 */
export const textOfCodes = (codes: Uint8Array | Uint16Array, from: number, to: number): string => {
  const CHUNK = 8192
  let out = ""
  for (let at = from; at < to; at += CHUNK) out += String.fromCharCode.apply(null, codes.subarray(at, Math.min(to, at + CHUNK)) as unknown as Array<number>)
  return out
}

const isSmall = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0 && x < MAX
const isText = (x: unknown): x is string => typeof x === "string"

/** Writes shown tuples in the compact form, into a buffer it reuses (`bytes` is valid until the next call). */
export class ShownEncoder {
  private buf = new Uint8Array(1024)
  private at = 0

  /**
   * The compact bytes of `tuple`, words numbered by `wordId` (which adds a word it does not have);
   * undefined when a value does not fit the compact form (the JSON form is then kept).
   */
  encode(tuple: ShownTuple, wordId: (word: string) => number): Uint8Array | undefined {
    const [carId, make, model, comfort, stars, category, bookingMode, viaggioRosa, isComfort, answerDelay, pictures, waypoints, durations] = tuple
    if (!isText(carId) || !isText(make) || !isText(model) || !isText(comfort) || !isText(category) || !isText(bookingMode)) return undefined
    if (!isSmall(stars) || !isSmall(answerDelay) || typeof viaggioRosa !== "boolean" || typeof isComfort !== "boolean") return undefined
    if (pictures !== null && !(Array.isArray(pictures) && pictures.every(isText))) return undefined
    if (!Array.isArray(waypoints) || !Array.isArray(durations) || !durations.every(isSmall)) return undefined
    for (const w of waypoints) {
      if (!Array.isArray(w) || w.length !== 4 || !isText(w[0]) || !isText(w[1]) || !(w[2] === null || isText(w[2])) || !(w[3] === null || isSmall(w[3]))) return undefined
    }
    this.at = 0
    this.byte(COMPACT)
    this.text(carId)
    this.varint(wordId(make))
    this.varint(wordId(model))
    this.varint(wordId(comfort))
    this.varint(stars)
    this.varint(wordId(category))
    this.varint(wordId(bookingMode))
    this.byte((viaggioRosa ? F_ROSA : 0) | (isComfort ? F_COMFORT : 0) | (pictures !== null ? F_PICTURES : 0))
    this.varint(answerDelay)
    if (pictures !== null) {
      this.varint(pictures.length)
      for (const p of pictures) this.text(p)
    }
    this.varint(waypoints.length)
    for (const [city, country, address, meetingPoint] of waypoints) {
      this.varint(wordId(city))
      this.varint(wordId(country))
      // 0 stands for null, n + 1 for n.
      this.varint(address === null ? 0 : wordId(address) + 1)
      this.varint(meetingPoint === null ? 0 : meetingPoint + 1)
    }
    this.varint(durations.length)
    for (const d of durations) this.varint(d)
    return this.buf.subarray(0, this.at)
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const more = new Uint8Array(Math.max(2 * this.buf.length, this.at + n))
    more.set(this.buf)
    this.buf = more
  }

  private byte(b: number): void {
    this.room(1)
    this.buf[this.at++] = b
  }

  /** A whole number in [0, 2^32), seven bits a byte, lowest first. */
  private varint(n: number): void {
    this.room(5)
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80
      n >>>= 7
    }
    this.buf[this.at++] = n
  }

  /** A text inline: its length and whether it is wide, then a byte a code unit, or two when one is over 255. */
  private text(s: string): void {
    let wide = 0
    for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) > 0xff) wide = 1
    this.varint(s.length * 2 + wide)
    this.room(s.length * 2)
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k)
      this.buf[this.at++] = c & 0xff
      if (wide === 1) this.buf[this.at++] = c >>> 8
    }
  }
}

/** Reads one compact tuple (see `ShownEncoder`); `word` gives a word of the table by its number. */
export const decodeShown = (bytes: Uint8Array, from: number, word: (id: number) => string): ShownTuple => {
  let at = from + 1
  const varint = (): number => {
    let n = 0
    let shift = 0
    for (;;) {
      const b = bytes[at++]!
      n += (b & 0x7f) * 2 ** shift
      if (b < 0x80) return n
      shift += 7
    }
  }
  const text = (): string => {
    const head = varint()
    const length = head >>> 1
    if ((head & 1) === 0) {
      at += length
      return textOfCodes(bytes, at - length, at)
    }
    const codes = new Uint16Array(length)
    for (let k = 0; k < length; k++, at += 2) codes[k] = bytes[at]! | (bytes[at + 1]! << 8)
    return textOfCodes(codes, 0, length)
  }
  const carId = text()
  const make = word(varint())
  const model = word(varint())
  const comfort = word(varint()) as ShownTuple[3]
  const stars = varint()
  const category = word(varint())
  const bookingMode = word(varint()) as ShownTuple[6]
  const flags = bytes[at++]!
  const answerDelay = varint()
  let pictures: Array<string> | null = null
  if ((flags & F_PICTURES) !== 0) {
    pictures = new Array<string>(varint())
    for (let k = 0; k < pictures.length; k++) pictures[k] = text()
  }
  const waypoints = new Array<readonly [string, string, string | null, number | null]>(varint())
  for (let k = 0; k < waypoints.length; k++) {
    const city = word(varint())
    const country = word(varint())
    const address = varint()
    const meetingPoint = varint()
    waypoints[k] = [city, country, address === 0 ? null : word(address - 1), meetingPoint === 0 ? null : meetingPoint - 1]
  }
  const durations = new Array<number>(varint())
  for (let k = 0; k < durations.length; k++) durations[k] = varint()
  return [carId, make, model, comfort, stars, category, bookingMode, (flags & F_ROSA) !== 0, (flags & F_COMFORT) !== 0, answerDelay, pictures, waypoints, durations]
}

/** Whether the shown bytes starting at `from` are in the compact form. */
export const isCompact = (bytes: Uint8Array, from: number): boolean => bytes[from] === COMPACT
