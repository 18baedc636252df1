/**
 * How long until `done` holds for what `probe` answers, probed every 10 ms (ms), or Infinity when
 * it did not within `ms`: the freshness and revocation bounds the tests assert are read from it.
 */
export const timeUntil = async <A>(probe: () => Promise<A>, done: (a: A) => boolean, ms = 5_000): Promise<number> => {
  const start = performance.now()
  while (performance.now() - start < ms) {
    if (done(await probe())) return performance.now() - start
    await new Promise((r) => setTimeout(r, 10))
  }
  return Infinity
}
