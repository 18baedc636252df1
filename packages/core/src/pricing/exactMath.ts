/**
 * Integer arithmetic for money (rounding applies to the exact value, never to a
 * binary float). Numbers are used while every product stays a safe integer, BigInt past that.
 */

/** round(num / den) half away from zero, for integers num >= 0 and den > 0. */
const roundDivSafe = (num: number, den: number): number => {
  const n2 = 2 * num + den
  const d2 = 2 * den
  let q = Math.floor(n2 / d2)
  // The float quotient can be off by one near an integer: correct it with exact products.
  if (q * d2 > n2) q -= 1
  else if ((q + 1) * d2 <= n2) q += 1
  return q
}

const roundDivBig = (num: bigint, den: bigint): number => Number((2n * num + den) / (2n * den))

/** round(product(factors) / product(divisors)) half away from zero; every input a non-negative integer. */
export const mulDivRound = (factors: ReadonlyArray<number>, divisors: ReadonlyArray<number>): number => {
  let num = 1
  for (const f of factors) num *= f
  let den = 1
  for (const d of divisors) den *= d
  if (num <= Number.MAX_SAFE_INTEGER / 2 && den <= Number.MAX_SAFE_INTEGER / 4) return roundDivSafe(num, den)
  let bn = 1n
  for (const f of factors) bn *= BigInt(f)
  let bd = 1n
  for (const d of divisors) bd *= BigInt(d)
  return roundDivBig(bn, bd)
}

/** round(a * b / den) half away from zero, for non-negative integers, without allocating. */
export const mulDivRound2 = (a: number, b: number, den: number): number => {
  const num = a * b
  if (num <= Number.MAX_SAFE_INTEGER / 2 && den <= Number.MAX_SAFE_INTEGER / 4) return roundDivSafe(num, den)
  return roundDivBig(BigInt(a) * BigInt(b), BigInt(den))
}

/** Rates are decimals (7.5345); kept as integers scaled by this so that conversion stays exact. */
export const RATE_SCALE = 1_000_000

export const scaledRate = (rate: number): number => Math.round(rate * RATE_SCALE)
