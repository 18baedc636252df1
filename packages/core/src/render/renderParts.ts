import { canonicalColorHexa, type FeedTrip } from "../model/FeedTrip.js"
import type { JsonObject } from "../RequestContext.js"
import { majorValue } from "../pricing/money.js"
import { currencySymbol, formatMoney } from "../pricing/formatMoney.js"
import type { CurrencyCode } from "../model/Locale.js"
import type { PriceColor } from "../pricing/priceColor.js"

/** The Price object; `price_color` only on the three price objects of a trip. */
export const renderPrice = (minor: number, currency: CurrencyCode, bcp47: string, color?: PriceColor): JsonObject => ({
  value: majorValue(minor, currency),
  currency,
  symbol: currencySymbol(currency, bcp47),
  string_value: formatMoney(minor, currency, bcp47),
  ...(color !== undefined ? { price_color: color } : {})
})

/** The Place object for waypoint k. */
export const renderPlace = (trip: Pick<FeedTrip, "waypoints">, k: number, marks: JsonObject = {}): JsonObject => {
  const w = trip.waypoints[k]!
  return {
    city_name: w.city,
    ...(w.address !== undefined ? { address: w.address } : {}),
    latitude: w.lat,
    longitude: w.lon,
    country_code: w.country,
    ...(w.meeting_point_id !== undefined ? { meeting_point_id: w.meeting_point_id } : {}),
    ...marks
  }
}

export const renderValue = (value: number, unity: "s" | "km"): JsonObject => ({ value, unity })

/** The car of a search result carries no detail-only fields. */
export const renderCar = (car: FeedTrip["car"], detail: boolean): JsonObject => ({
  id: car.id,
  model: car.model,
  make: car.make,
  ...(detail && car.color !== undefined ? { color: car.color } : {}),
  // Rows imported before the feed took `#RRGGBB` kept the case they were given.
  ...(detail && car.color_hexa !== undefined ? { color_hexa: canonicalColorHexa(car.color_hexa) } : {}),
  comfort: car.comfort,
  comfort_nb_star: car.comfort_nb_star,
  ...(detail && car.number_of_seat !== undefined ? { number_of_seat: car.number_of_seat } : {}),
  category: car.category,
  ...(detail && car.picture !== undefined ? { picture: car.picture } : {})
})

/** Half away from zero for the positive figures of the API (km, seconds). */
export const roundHalfUp = (x: number): number => Math.round(x)
