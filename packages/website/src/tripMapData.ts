import polyline from "@mapbox/polyline"
import type { FeedLeg, FeedWaypoint } from "@tripsearch/core"
import { Html, html } from "./html.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** `[lat, lon]`, as Leaflet takes points. */
export type LatLon = readonly [number, number]

/** A labelled point of the map: a stop of the trip, or a searched place. */
export interface MapStop {
  readonly name: string
  readonly lat: number
  readonly lon: number
  /** `pickup` and `dropoff` are this passenger's; `from` and `to` the search's places. */
  readonly role: "pickup" | "dropoff" | "stop" | "from" | "to"
  readonly label: string
}

/** What the page's map draws, as the page carries it (`#map-data`). */
export interface MapData {
  readonly tiles: MapTiles
  /** The driver's whole road. */
  readonly road: ReadonlyArray<LatLon>
  /** This passenger's part of it, pickup to drop-off. */
  readonly part: ReadonlyArray<LatLon>
  readonly stops: ReadonlyArray<MapStop>
}

/** Where the map's tiles come from (`MAP_TILES_URL`), and the credit their makers ask for. */
export interface MapTiles {
  readonly url: string
  readonly attribution: string
}

/** OpenStreetMap's standard tiles, with the credit their licence asks for. */
export const OSM_TILES: MapTiles = {
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
}

/** A stored leg as far as the map reads it: `path` is the driver's road, an encoded polyline (1e-5). */
export type RoadLeg = Pick<FeedLeg, "path">

/** A stored waypoint as far as the map reads it. */
export type RoadWaypoint = Pick<FeedWaypoint, "lat" | "lon">

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5

/**
 * The driver's road through the waypoints: each leg's `path` where it has a valid one (its ends
 * replaced by the waypoints themselves, as the search reads it), a straight line otherwise.
 */
export const roadOf = (waypoints: ReadonlyArray<RoadWaypoint>, legs: ReadonlyArray<RoadLeg>): Array<LatLon> => {
  const road: Array<LatLon> = []
  const push = (p: LatLon) => {
    const last = road[road.length - 1]
    if (last === undefined || last[0] !== p[0] || last[1] !== p[1]) road.push(p)
  }
  waypoints.forEach((w, k) => {
    push([round5(w.lat), round5(w.lon)])
    const next = waypoints[k + 1]
    const path = legs[k]?.path
    if (next === undefined || typeof path !== "string") return
    let points: Array<[number, number]>
    try {
      points = polyline.decode(path, 5)
    } catch {
      return
    }
    for (const p of points.slice(1, -1)) if (Number.isFinite(p[0]) && Number.isFinite(p[1])) push([round5(p[0]), round5(p[1])])
  })
  return road
}

const squared = (a: LatLon, lat: number, lon: number, k: number): number => (a[0] - lat) ** 2 + ((a[1] - lon) * k) ** 2

/** The index of the road's point nearest to (lat, lon) from `from` on; the first of equals. */
const nearestIndex = (road: ReadonlyArray<LatLon>, lat: number, lon: number, from: number): number => {
  const k = Math.cos((lat * Math.PI) / 180)
  let best = from
  for (let i = from; i < road.length; i++) if (squared(road[i]!, lat, lon, k) < squared(road[best]!, lat, lon, k)) best = i
  return best
}

/** How this passenger's ends are named on the trip page and its map: `Mâcon · Gare de Mâcon-Ville`. */
export interface PassengerEnds {
  readonly pickup: string
  readonly dropoff: string
}

/**
 * A place by its town and, when it is a meeting point, the meeting point's name (else the
 * address's first part): `Mâcon · Gare de Mâcon-Ville`.
 */
const placeName = (p: Json, meetingPoint: string | undefined): string => {
  const first = meetingPoint ?? (typeof p.address === "string" ? p.address.split(",")[0]!.trim() : "")
  return first === "" || first === p.city_name ? String(p.city_name) : `${String(p.city_name)} · ${first}`
}

/**
 * This passenger's pickup and drop-off in the API's TripDetail: the departure's meeting point is
 * named by `departure_meeting_point`; the arrival's, which the answer does not name, by
 * `meetingPointName` (the store's meeting points).
 */
export const passengerEnds = (trip: Json, meetingPointName: (id: number) => string | undefined = () => undefined): PassengerEnds => {
  const pickup = trip.departure_place as Json
  const dropoff = trip.arrival_place as Json
  const departureMp = trip.departure_meeting_point as Json | undefined
  const mpOf = (p: Json): string | undefined =>
    p.meeting_point_id === undefined
      ? undefined
      : departureMp !== undefined && p === pickup && departureMp.id === p.meeting_point_id
        ? String(departureMp.name)
        : meetingPointName(Number(p.meeting_point_id))
  return { pickup: placeName(pickup, mpOf(pickup)), dropoff: placeName(dropoff, mpOf(dropoff)) }
}

/**
 * The trip page's map over the API's TripDetail: every stop-over labelled, this passenger's
 * pickup and drop-off labelled as such (the trip's `departure_place` and `arrival_place`, waypoint
 * or meeting point along the road), and the driver's road: the stored trip's waypoints and leg
 * paths when the store gave them, else straight lines through the stop-overs.
 */
export const tripMapData = (
  trip: Json,
  stored: { readonly waypoints: ReadonlyArray<RoadWaypoint>; readonly legs: ReadonlyArray<RoadLeg> } | undefined,
  /** The labels of this passenger's ends, from the place's name (`Pick-up: Lyon`). */
  labels: { readonly pickup: (place: string) => string; readonly dropoff: (place: string) => string },
  tiles: MapTiles,
  /** How this passenger's ends are named (`passengerEnds`). */
  names: PassengerEnds = passengerEnds(trip)
): MapData => {
  const stops = (trip.stop_overs as ReadonlyArray<Json>).map((s) => ({ lat: Number(s.latitude), lon: Number(s.longitude), s }))
  const road = stored !== undefined && stored.waypoints.length >= 2 ? roadOf(stored.waypoints, stored.legs) : roadOf(stops, [])
  const pickup = trip.departure_place as Json
  const dropoff = trip.arrival_place as Json
  const a = nearestIndex(road, Number(pickup.latitude), Number(pickup.longitude), 0)
  const b = nearestIndex(road, Number(dropoff.latitude), Number(dropoff.longitude), a)
  // In road order; the passenger's ends are labelled from the trip's own places.
  const ends = {
    pickup: { name: names.pickup, lat: Number(pickup.latitude), lon: Number(pickup.longitude), role: "pickup", label: labels.pickup(names.pickup) },
    dropoff: { name: names.dropoff, lat: Number(dropoff.latitude), lon: Number(dropoff.longitude), role: "dropoff", label: labels.dropoff(names.dropoff) }
  } as const
  const mapStops: Array<MapStop> = stops.map(({ lat, lon, s }) =>
    s.departure_place === true ? ends.pickup : s.arrival_place === true ? ends.dropoff : { name: String(s.city_name), lat, lon, role: "stop", label: String(s.city_name) }
  )
  if (!mapStops.includes(ends.pickup)) mapStops.unshift(ends.pickup)
  if (!mapStops.includes(ends.dropoff)) mapStops.push(ends.dropoff)
  return { tiles, road, part: road.slice(a, b + 1), stops: mapStops }
}

/**
 * The map's box and its data; `leaflet` is the address the script loads Leaflet from. The box
 * stays hidden until the script shows it, so that a page without the script (or without a map)
 * shows the SVG drawing alone.
 */
export const mapBlock = (data: MapData, title: string, leaflet: string): Html =>
  // `<` is escaped so that no name can close the script element.
  html`<div id="map" class="map" role="region" aria-label="${title}" data-leaflet="${leaflet}" hidden></div><script type="application/json" id="map-data">${new Html(
    JSON.stringify(data).replace(/</g, "\\u003c")
  )}</script>`
