const DIGIT = 11
const BUCKETS = 1 << DIGIT

/**
 * Sorts slots (non-negative int32s below `2 ** bits`), and optionally a value carried with each, by
 * slot, stably: a least-significant-digit radix sort over 11-bit digits, two passes for a million
 * slots. A search lists up to millions of hits (every stop of every trip in a 300 km radius), and
 * `Int32Array.prototype.sort` spends about 60 ns on each of them at that size; this spends a few.
 * The scratch arrays are kept between searches.
 */
export class SlotSort {
  private keys = new Int32Array(1024)
  private vals = new Int32Array(1024)
  private readonly counts = new Int32Array(BUCKETS)

  /**
   * Sorts `keys[0..n)` (and `vals[0..n)` with them, when given) in place, `bits` being the slots'
   * width (`32 - Math.clz32(slots - 1)`).
   */
  sort(keys: Int32Array, n: number, bits: number, vals?: Int32Array): void {
    if (n < 2) return
    if (this.keys.length < n) {
      this.keys = new Int32Array(Math.max(n, 2 * this.keys.length))
      this.vals = new Int32Array(this.keys.length)
    }
    const passes = Math.max(1, Math.ceil(bits / DIGIT))
    let srcK: Int32Array = keys
    let srcV: Int32Array | undefined = vals
    let dstK: Int32Array = this.keys
    let dstV: Int32Array | undefined = vals !== undefined ? this.vals : undefined
    const counts = this.counts
    for (let p = 0; p < passes; p++) {
      const shift = p * DIGIT
      counts.fill(0)
      for (let i = 0; i < n; i++) counts[(srcK[i]! >>> shift) & (BUCKETS - 1)]!++
      let sum = 0
      for (let b = 0; b < BUCKETS; b++) {
        const c = counts[b]!
        counts[b] = sum
        sum += c
      }
      if (srcV !== undefined && dstV !== undefined) {
        for (let i = 0; i < n; i++) {
          const k = srcK[i]!
          const at = counts[(k >>> shift) & (BUCKETS - 1)]!++
          dstK[at] = k
          dstV[at] = srcV[i]!
        }
      } else {
        for (let i = 0; i < n; i++) {
          const k = srcK[i]!
          dstK[counts[(k >>> shift) & (BUCKETS - 1)]!++] = k
        }
      }
      ;[srcK, dstK] = [dstK, srcK]
      ;[srcV, dstV] = [dstV, srcV]
    }
    // An odd number of passes leaves the sorted order in the scratch arrays.
    if (srcK !== keys) {
      keys.set(srcK.subarray(0, n))
      if (vals !== undefined && srcV !== undefined) vals.set(srcV.subarray(0, n))
    }
  }
}
