import { COUNTRY_PROFILES } from "./countryProfiles.js"
import { FeedWorld } from "./FeedWorld.js"
import { RoadNetwork } from "./RoadNetwork.js"
import { TripNetwork } from "./TripNetwork.js"

/** A place a query names: a town's centre. */
export interface QueryPlace {
  readonly city: string
  readonly lat: number
  readonly lon: number
  readonly country: string | undefined
}

/** Searches along one busy road: from one of the towns it passes to its end or beyond. */
export interface BusyRoadSearch {
  /** The towns the road passes through without ending there, in road order. */
  readonly along: ReadonlyArray<QueryPlace>
  /** The road's end, and the ends of the busy roads that go on from it in about the same direction. */
  readonly ends: ReadonlyArray<QueryPlace>
  /** How much of the network's traffic the road carries: searches are drawn by it. */
  readonly weight: number
}

const BUSY_ROADS_PER_COUNTRY = 40
const BUSY_ROAD_MIN_SHARE = 0.002

/**
 * The heavy query mix's searches along the busy roads (both ways of the roads that carry the meeting
 * points' exits): a passenger in a town the drivers pass through, going to where they go. Their
 * answers hold trips that only pass the passenger's town, when the store has roads and meeting
 * points.
 */
export const busyRoadSearches = (): ReadonlyArray<BusyRoadSearch> => {
  const world = FeedWorld.shared()
  const network = TripNetwork.shared(world)
  // A network of its own, not the shared one: its caches go when the generator is done with them.
  const roads = new RoadNetwork(world, network)
  const busy = roads.busyRoads(
    COUNTRY_PROFILES.map((p) => p.country),
    BUSY_ROADS_PER_COUNTRY,
    BUSY_ROAD_MIN_SHARE
  )
  const place = (i: number): QueryPlace => ({ city: world.name[i]!, lat: world.lat[i]!, lon: world.lon[i]!, country: world.country[i] })
  const directed = busy.flatMap((r) => [
    { from: r.from, to: r.to, vias: Array.from(r.vias), share: r.share / 2 },
    { from: r.to, to: r.from, vias: Array.from(r.vias).reverse(), share: r.share / 2 }
  ])
  const bearing = (a: number, b: number) => Math.atan2((world.lon[b]! - world.lon[a]!) * Math.cos((world.lat[a]! * Math.PI) / 180), world.lat[b]! - world.lat[a]!)
  const out: Array<BusyRoadSearch> = []
  for (const road of directed) {
    if (road.vias.length === 0) continue
    const heading = bearing(road.from, road.to)
    const beyond = directed.filter((next) => {
      if (next.from !== road.to) return false
      const turn = Math.abs(((bearing(next.from, next.to) - heading + 3 * Math.PI) % (2 * Math.PI)) - Math.PI)
      return turn < Math.PI / 4
    })
    out.push({ along: road.vias.map(place), ends: [place(road.to), ...beyond.map((b) => place(b.to))], weight: road.share })
  }
  return out
}
