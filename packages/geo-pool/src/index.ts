export * from "./GeoTask.js"
export * from "./GeoPool.js"
export * from "./PoolTripMatcher.js"
