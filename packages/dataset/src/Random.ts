/**
 * A seeded pseudo-random generator (sfc32, seeded through cyrb128), so that a seed always gives
 * the same feed on every machine. Never `Math.random`.
 */
export class Random {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: string | number) {
    const [a, b, c, d] = cyrb128(String(seed))
    this.a = a
    this.b = b
    this.c = c
    this.d = d
    // The first outputs of sfc32 still show the seed's structure.
    for (let i = 0; i < 12; i++) this.next()
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<A>(items: ReadonlyArray<A>): A {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** An index drawn with the given weights (not necessarily normalized). */
  weighted(weights: ReadonlyArray<number>): number {
    let total = 0
    for (const w of weights) total += w
    let x = this.next() * total
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!
      if (x < 0) return i
    }
    return weights.length - 1
  }

  /** An index drawn from cumulative weights (ascending, last = total), by binary search. */
  cumulative(cumulativeWeights: Float64Array): number {
    const x = this.next() * cumulativeWeights[cumulativeWeights.length - 1]!
    let lo = 0
    let hi = cumulativeWeights.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulativeWeights[mid]! > x) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  /** `length` characters from `alphabet`. */
  string(alphabet: string, length: number): string {
    let s = ""
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)]
    return s
  }
}

/** 128-bit string hash (bryc's cyrb128): four 32-bit seeds that differ for close strings. */
const cyrb128 = (str: string): [number, number, number, number] => {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}
