import type { AlongImage } from "./AlongGrid.js"
import type { GridImage } from "./GeoGrid.js"
import type { ColumnsImage } from "./TripColumns.js"

/**
 * Every array of a `TripIndex`, all in shared memory: what its writer posts to the threads that
 * search it (structured clone shares a SharedArrayBuffer instead of copying it). `version` grows
 * with each image the writer announces; a reader keeps the latest it was given.
 */
export interface IndexImage {
  readonly version: number
  readonly columns: ColumnsImage
  readonly grid: GridImage
  readonly along: AlongImage
}
