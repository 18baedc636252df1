/**
 * A bounded cache keyed by a pair of small integers, in two generations: when the newer one holds
 * `generation` entries it becomes the older one and the oldest is dropped, so entries used again
 * survive (a hit in the older generation is moved to the newer). Keys are nested maps of the two
 * integers, not one number `a * 2^k + b`: past 2^30 such a number is no small integer, and V8 then
 * hashes it several times more slowly.
 */
export class PairCache<V> {
  private newer = new Map<number, Map<number, V>>()
  private older = new Map<number, Map<number, V>>()
  private size = 0

  constructor(private readonly generation: number) {}

  get(a: number, b: number): V | undefined {
    const hit = this.newer.get(a)?.get(b)
    if (hit !== undefined) return hit
    const old = this.older.get(a)?.get(b)
    if (old !== undefined) this.set(a, b, old)
    return old
  }

  set(a: number, b: number, value: V): void {
    if (this.size >= this.generation) {
      this.older = this.newer
      this.newer = new Map()
      this.size = 0
    }
    let inner = this.newer.get(a)
    if (inner === undefined) this.newer.set(a, (inner = new Map()))
    if (!inner.has(b)) this.size++
    inner.set(b, value)
  }
}
