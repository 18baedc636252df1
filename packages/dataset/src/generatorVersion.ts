/**
 * The generator's version: bumped whenever the same options give other trips, so that anything
 * built from a generated feed and kept (the benchmarks' stores under `.bench/`, the default data
 * set under `data/`) is rebuilt instead of reused. 2: the gravity network and the lead times.
 */
export const GENERATOR_VERSION = 2
