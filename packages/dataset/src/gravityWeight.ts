/**
 * The gravity model of the feed's network trips: how many trips join two agglomerations, up to a
 * constant. Exponents above 1 (network effects: a ride between two big cities fills first) put
 * each country's trunk axes on top of their populations alone; the distance profile is where
 * carpooling is: a log-normal in km peaking at `peakKm`, under a quarter of its peak from 900 km,
 * a few percent from 1,500 km (trains and planes win there), and next to nothing under 50 km
 * (a short hop rarely goes through a carpooling site).
 */
export const GRAVITY = {
  originExponent: 1.3,
  destinationExponent: 1.3,
  peakKm: 350,
  sigma: 0.55
} as const

/** The distance profile f(km), 1 at the peak. */
export const distanceProfile = (km: number): number => {
  const z = Math.log(km / GRAVITY.peakKm) / GRAVITY.sigma
  return Math.exp(-0.5 * z * z)
}

/** Trips from an agglomeration of `originPopulation` to one of `destinationPopulation`, `km` apart. */
export const gravityWeight = (originPopulation: number, destinationPopulation: number, km: number): number =>
  originPopulation ** GRAVITY.originExponent * destinationPopulation ** GRAVITY.destinationExponent * distanceProfile(km)
