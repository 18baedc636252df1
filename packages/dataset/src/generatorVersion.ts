/**
 * The generator's version: bumped whenever the same options give other trips, so that anything
 * built from a generated feed and kept (the benchmarks' stores under `.bench/`, the default data
 * set under `data/`) is rebuilt instead of reused. 2: the gravity network and the lead times. 3:
 * roads (legs' `path`), stop-overs along them, a third of the trips `ON_TIME`, waypoints'
 * `meeting_point_id` naming the meeting point feed's town centres and stations.
 */
export const GENERATOR_VERSION = 3
