import { canonicalColorHexa, type FeedTrip } from "../model/FeedTrip.js"
import type { JsonObject } from "../RequestContext.js"
import { majorValue } from "../pricing/money.js"
import { currencySymbol, formatMoney } from "../pricing/formatMoney.js"
import type { CurrencyCode } from "../model/Locale.js"
import type { PriceColor } from "../pricing/priceColor.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"

// The renderers below add optional properties one by one instead of spreading small objects: they
// run for every trip a search shows, and a spread costs a runtime call in V8. Keys keep the
// response's order.

/** The Price object; `price_color` only on the three price objects of a trip. */
export const renderPrice = (minor: number, currency: CurrencyCode, bcp47: string, color?: PriceColor): JsonObject => {
  const price: Record<string, unknown> = {
    value: majorValue(minor, currency),
    currency,
    symbol: currencySymbol(currency, bcp47),
    string_value: formatMoney(minor, currency, bcp47)
  }
  if (color !== undefined) price["price_color"] = color
  return price as JsonObject
}

/** The `city_name` a waypoint is shown with: in the locale's language (`PlaceNames`). */
export type CityNamer = (w: Pick<FeedTrip["waypoints"][number], "city" | "country" | "lat" | "lon">) => string

/** The Place object for waypoint k. */
export const renderPlace = (trip: Pick<FeedTrip, "waypoints">, k: number, cityName: CityNamer, marks?: JsonObject): JsonObject => {
  const w = trip.waypoints[k]!
  const place: Record<string, unknown> = { city_name: cityName(w) }
  if (w.address !== undefined) place["address"] = w.address
  place["latitude"] = w.lat
  place["longitude"] = w.lon
  place["country_code"] = w.country
  if (w.meeting_point_id !== undefined) place["meeting_point_id"] = w.meeting_point_id
  return (marks === undefined ? place : Object.assign(place, marks)) as JsonObject
}

/** The Place of a stop along the road: its meeting point's (docs/API.md, Along the road). */
export const renderStopPlace = (mp: StoredMeetingPoint, cityName: CityNamer, marks?: JsonObject): JsonObject => {
  const place: Record<string, unknown> = { city_name: cityName(mp) }
  if (mp.address !== undefined) place["address"] = mp.address
  place["latitude"] = mp.lat
  place["longitude"] = mp.lon
  place["country_code"] = mp.country
  place["meeting_point_id"] = mp.id
  return (marks === undefined ? place : Object.assign(place, marks)) as JsonObject
}

/** The Meeting point object. */
export const renderMeetingPoint = (mp: StoredMeetingPoint, cityName: CityNamer): JsonObject => {
  const out: Record<string, unknown> = { id: mp.id, name: mp.name, full_name: mp.full_name, city_name: cityName(mp) }
  if (mp.address !== undefined) out["address"] = mp.address
  out["latitude"] = mp.lat
  out["longitude"] = mp.lon
  out["country_code"] = mp.country
  out["tags"] = mp.tags
  return out as JsonObject
}

export const renderValue = (value: number, unity: "s" | "km"): JsonObject => ({ value, unity })

/** The car of a search result carries no detail-only fields. */
export const renderCar = (car: FeedTrip["car"], detail: boolean): JsonObject => {
  if (!detail) return { id: car.id, model: car.model, make: car.make, comfort: car.comfort, comfort_nb_star: car.comfort_nb_star, category: car.category }
  const out: Record<string, unknown> = { id: car.id, model: car.model, make: car.make }
  if (car.color !== undefined) out["color"] = car.color
  // Rows imported before the feed took `#RRGGBB` kept the case they were given.
  if (car.color_hexa !== undefined) out["color_hexa"] = canonicalColorHexa(car.color_hexa)
  out["comfort"] = car.comfort
  out["comfort_nb_star"] = car.comfort_nb_star
  if (car.number_of_seat !== undefined) out["number_of_seat"] = car.number_of_seat
  out["category"] = car.category
  if (car.picture !== undefined) out["picture"] = car.picture
  return out as JsonObject
}

/** Half away from zero for the positive figures of the API (km, seconds). */
export const roundHalfUp = (x: number): number => Math.round(x)
