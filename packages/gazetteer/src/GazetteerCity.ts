/** One populated place of the gazetteer (a GeoNames record of at least 1,000 inhabitants). */
export interface GazetteerCity {
  /** GeoNames id. */
  readonly id: number
  readonly name: string
  /** ISO 3166-1 alpha-2. */
  readonly country: string
  readonly lat: number
  readonly lon: number
  readonly population: number
  /** GeoNames feature code: `PPLC` capital, `PPLA*` seats of administration, `PPLX` city sections, ... */
  readonly featureCode: string
  /** GeoNames first-level administrative division, as a code. */
  readonly adminCode: string
}
