import type { RoadStop } from "@tripsearch/core"

/**
 * The `road_stops` column: a trip's stops along the road, 36 bytes a stop, in road order, little-
 * endian:
 *
 *   float64 fraction, float64 lat, float64 lon, int32 mp, int32 offsetMin, int16 leg, int16 zoneOffsetMin
 *
 * A fifth of their JSON (about 170 characters a stop, most of them the digits of three doubles),
 * which the import writes twice (the row and the covering index `trips_scan`) and an index build
 * reads back: the doubles are the same bits, and no number is printed or parsed.
 */
const STOP_BYTES = 36

const int = (value: number, bits: 16 | 32, what: string): number => {
  const max = 2 ** (bits - 1)
  if (!Number.isInteger(value) || value < -max || value >= max) throw new Error(`road stop: ${what} ${value} does not fit in int${bits}`)
  return value
}

/** The column of a trip's stops along the road (none: NULL, not an empty blob). */
export const encodeRoadStops = (stops: ReadonlyArray<RoadStop>): Buffer => {
  const bytes = Buffer.allocUnsafe(stops.length * STOP_BYTES)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let o = 0
  for (const s of stops) {
    // -0 as JSON gave it back, 0: the same RoadStop values as the column's earlier JSON.
    view.setFloat64(o, s.fraction === 0 ? 0 : s.fraction, true)
    view.setFloat64(o + 8, s.lat === 0 ? 0 : s.lat, true)
    view.setFloat64(o + 16, s.lon === 0 ? 0 : s.lon, true)
    view.setInt32(o + 24, int(s.mp, 32, "meeting point id"), true)
    view.setInt32(o + 28, int(s.offsetMin, 32, "offsetMin"), true)
    view.setInt16(o + 32, int(s.leg, 16, "leg"), true)
    view.setInt16(o + 34, int(s.zoneOffsetMin, 16, "zoneOffsetMin"), true)
    o += STOP_BYTES
  }
  return bytes
}

/** A `road_stops` column back as the stops (none when NULL). */
export const readRoadStops = (column: Uint8Array | null | undefined): ReadonlyArray<RoadStop> | undefined => {
  if (column === null || column === undefined) return undefined
  if (column.byteLength % STOP_BYTES !== 0) throw new Error(`road_stops: ${column.byteLength} bytes, not a whole number of stops`)
  const view = new DataView(column.buffer, column.byteOffset, column.byteLength)
  const stops = new Array<RoadStop>(column.byteLength / STOP_BYTES)
  for (let k = 0, o = 0; k < stops.length; k++, o += STOP_BYTES) {
    // The keys in the order the stops are made in (core's roadStopsOf).
    stops[k] = {
      mp: view.getInt32(o + 24, true),
      leg: view.getInt16(o + 32, true),
      fraction: view.getFloat64(o, true),
      lat: view.getFloat64(o + 8, true),
      lon: view.getFloat64(o + 16, true),
      offsetMin: view.getInt32(o + 28, true),
      zoneOffsetMin: view.getInt16(o + 34, true)
    }
  }
  return stops
}

/** Whether two `road_stops` columns hold the same stops. */
export const sameRoadStops = (a: Uint8Array | null, b: Uint8Array | null): boolean =>
  a === null || b === null ? a === b : Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)
