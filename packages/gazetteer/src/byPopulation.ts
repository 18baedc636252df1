import type { GazetteerCity } from "./GazetteerCity.js"

/** Largest population first, then smallest GeoNames id, so that no order depends on load order. */
export const byPopulation = (a: GazetteerCity, b: GazetteerCity): number => b.population - a.population || a.id - b.id
