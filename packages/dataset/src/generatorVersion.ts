/**
 * The generator's version: bumped whenever the same options give other trips, so that anything
 * built from a generated feed and kept (the benchmarks' stores under `.bench/`, the default data
 * set under `data/`) is rebuilt instead of reused. 2: the gravity network and the lead times. 3:
 * roads (legs' `path`), stop-overs along them, a third of the trips `ON_TIME`, waypoints'
 * `meeting_point_id` naming the meeting point feed's town centres and stations. 4: the same trips,
 * roads and stops, with towns named in meeting points and addresses as the place's language writes
 * them (München Zentrum, not Munich Zentrum): a default data set of 3 is made again at start.
 */
export const GENERATOR_VERSION = 4
