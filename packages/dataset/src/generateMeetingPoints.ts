import { COUNTRY_PROFILES } from "./countryProfiles.js"
import { FeedWorld } from "./FeedWorld.js"
import type { GenerateFeedOptions } from "./generateFeed.js"
import { haversineKm } from "./haversineKm.js"
import { CENTRE_MIN_POPULATION, MEETING_POINT_IDS, STATION_MIN_POPULATION } from "./meetingPointIds.js"
import { MEETING_POINT_NAMES, type MeetingPointNames, meetingPointLanguage } from "./meetingPointNames.js"
import { namingLocale } from "./namingLocale.js"
import { Random } from "./Random.js"
import { offsetPoint, RoadNetwork } from "./RoadNetwork.js"
import { TripNetwork } from "./TripNetwork.js"

/** One line of the meeting point feed (the lead's `FeedMeetingPoint`: SEMANTICS §11). */
export interface GeneratedMeetingPoint {
  readonly id: number
  readonly status?: "active" | "removed"
  readonly name: string
  readonly full_name: string
  readonly city: string
  readonly address?: string
  readonly lat: number
  readonly lon: number
  readonly country: string
  readonly tags: ReadonlyArray<string>
}

/** Busy roads: per network country, the agglomeration pairs carrying the most trips. */
const BUSY_ROADS_PER_COUNTRY = 40
const BUSY_ROAD_MIN_SHARE = 0.002
/** A service area every 35..55 km of busy road. */
const SERVICE_AREA_EVERY_KM = 45

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The meeting point feed of the generator's world, deterministic and the same for every seed and
 * size of trip feed (it depends on the towns only, and `options` only keeps the call like
 * `generateFeed`'s):
 * - a town centre (`CITY_CENTER`) in every town of at least 5,000 inhabitants, within 150 m of its
 *   centre, the `meeting_point_id` of the trips' waypoints there;
 * - a station (`TRAIN_STATION`, and `BUS_STATION` in some cities) 0.3..1.5 km from the centre of
 *   every town of at least 50,000;
 * - along the busy roads (the pairs of agglomerations carrying the most network trips): a motorway
 *   exit (`HIGHWAY_EXIT`) within 150 m of each via town's junction, where every road through it
 *   passes; a park-and-ride beside some of them, 1.1..1.6 km off the road; a service area
 *   (`SERVICE_AREA`) every 35..55 km, 50..300 m off the road, named after the nearest town.
 * Names and addresses are in the language of the place's country (`MEETING_POINT_NAMES`), with
 * the town as that language writes it (`FeedWorld.localName`); `full_name` is "name, town" in the
 * same words, `city` the GeoNames name (the API names it in the reader's locale), and ids follow
 * `MEETING_POINT_IDS`.
 */
export function* generateMeetingPoints(_options?: Partial<GenerateFeedOptions>): Generator<GeneratedMeetingPoint, void, undefined> {
  const world = FeedWorld.shared()
  const network = TripNetwork.shared(world)
  // A network of its own, not the shared one: its caches go when the generator is done with them.
  const roads = new RoadNetwork(world, network)
  for (let town = 0; town < world.size; town++) {
    const population = world.population[town]!
    if (population < CENTRE_MIN_POPULATION) continue
    const rng = new Random(`meeting-point|${town}`)
    const { names, name } = namesAt(world, town)
    const city = world.name[town]!
    const [cLat, cLon] = offsetPoint(world.lat[town]!, world.lon[town]!, rng.next() * 2 * Math.PI, rng.between(0, 0.15))
    yield point(rng, MEETING_POINT_IDS.centre(town), fill(names.centre, name), city, name, rng.chance(0.5) ? fill(names.centreAddress, name) : undefined, cLat, cLon, world.country[town]!, ["CITY_CENTER"])
    if (population < STATION_MIN_POPULATION) continue
    const [sLat, sLon] = offsetPoint(world.lat[town]!, world.lon[town]!, rng.next() * 2 * Math.PI, rng.between(0.3, 1.5))
    const tags = population >= 100_000 && rng.chance(0.5) ? ["TRAIN_STATION", "BUS_STATION"] : ["TRAIN_STATION"]
    const station = fill(population >= 100_000 ? names.mainStation : names.station, name)
    yield point(rng, MEETING_POINT_IDS.station(town), station, city, name, rng.chance(0.6) ? fill(names.stationAddress, name) : undefined, sLat, sLon, world.country[town]!, tags)
  }

  const exits = new Set<number>()
  const stretches = new Set<string>()
  let serviceAreas = 0
  const busy = roads.busyRoads(
    COUNTRY_PROFILES.map((p) => p.country),
    BUSY_ROADS_PER_COUNTRY,
    BUSY_ROAD_MIN_SHARE
  )
  for (const { from, to, vias } of busy) {
    const road = roads.road(from, to)
    const anchors = [from * 2, ...Array.from(vias, (v) => v * 2 + 1), to * 2]
    for (let k = 0; k < vias.length; k++) {
      const town = vias[k]!
      if (exits.has(town)) continue
      exits.add(town)
      const rng = new Random(`exit|${town}`)
      const { names, name } = namesAt(world, town)
      const city = world.name[town]!
      const [jLat, jLon] = roads.junction(town)
      const side = names.sides[sideOf(world.lat[town]!, world.lon[town]!, jLat, jLon)]!
      const number = String(rng.int(1, 60))
      const [eLat, eLon] = offsetPoint(jLat, jLon, rng.next() * 2 * Math.PI, rng.between(0, 0.15))
      const exit = fill(names.exit, name).replace("{n}", number).replace("{d}", side)
      yield point(rng, MEETING_POINT_IDS.exit(town), exit, city, name, undefined, eLat, eLon, world.country[town]!, ["HIGHWAY_EXIT"])
      if (rng.chance(0.4)) {
        // Beside the road, across it: just beyond the 1 km that makes a meeting point a stop.
        const joint = road.joints[k + 1]!
        const before = Math.max(0, joint - 1)
        const after = Math.min(road.lat.length - 1, joint + 1)
        const heading = Math.atan2(
          (road.lon[after]! - road.lon[before]!) * Math.cos((jLat * Math.PI) / 180),
          road.lat[after]! - road.lat[before]!
        )
        const [pLat, pLon] = offsetPoint(jLat, jLon, heading + (rng.chance(0.5) ? 1 : -1) * (Math.PI / 2), rng.between(1.1, 1.6))
        const park = fill(names.parkAndRide, name).replace("{d}", side)
        yield point(rng, MEETING_POINT_IDS.parkAndRide(town), park, city, name, undefined, pLat, pLon, world.country[town]!, ["PARK_AND_RIDE"])
      }
    }
    for (let k = 0; k + 1 < anchors.length; k++) {
      const key = anchors[k]! < anchors[k + 1]! ? `${anchors[k]}|${anchors[k + 1]}` : `${anchors[k + 1]}|${anchors[k]}`
      if (stretches.has(key)) continue
      stretches.add(key)
      const first = road.joints[k]!
      const last = road.joints[k + 1]!
      const km = haversineKm(road.lat[first]!, road.lon[first]!, road.lat[last]!, road.lon[last]!)
      const count = Math.floor(km / SERVICE_AREA_EVERY_KM)
      const rng = new Random(`service-area|${key}`)
      for (let s = 0; s < count; s++) {
        const at = first + Math.round(((s + rng.between(0.3, 0.7)) / count) * (last - first))
        if (at <= first || at >= last) continue
        const [aLat, aLon] = offsetPoint(road.lat[at]!, road.lon[at]!, rng.next() * 2 * Math.PI, rng.between(0.05, 0.3))
        const town = nearestTown(world, aLat, aLon)
        if (town < 0) continue
        const { names, name } = namesAt(world, town)
        const area = fill(names.serviceArea, name).replace("{d}", names.sides[rng.int(0, 3)]!)
        const id = MEETING_POINT_IDS.serviceArea(++serviceAreas)
        // A few closed ones: a removed meeting point is no stop of any trip.
        const status = rng.chance(0.02) ? "removed" : undefined
        yield point(rng, id, area, world.name[town]!, name, undefined, aLat, aLon, world.country[town]!, ["SERVICE_AREA"], status)
      }
    }
  }
}

const fill = (template: string, town: string): string => template.replace("{de}", /^[AEIOUYÂÉÈÊÎÔ]/i.test(town) ? "d'" : "de ").replace("{t}", town)

/**
 * How meeting points in a town are named, and the town's name in those names: as the place's
 * language writes it (München, Beograd), not GeoNames' English one.
 */
const namesAt = (world: FeedWorld, town: number): { readonly names: MeetingPointNames; readonly name: string } => {
  const country = world.country[town]!
  const language = meetingPointLanguage(country, world.lat[town]!, world.lon[town]!)
  return { names: MEETING_POINT_NAMES[language], name: world.localName(town, namingLocale(language, country)) }
}

/** 0 north, 1 south, 2 east, 3 west: where a point lies from a town's centre. */
const sideOf = (lat: number, lon: number, pLat: number, pLon: number): number => {
  const dy = pLat - lat
  const dx = (pLon - lon) * Math.cos((lat * Math.PI) / 180)
  return Math.abs(dy) >= Math.abs(dx) ? (dy >= 0 ? 0 : 1) : dx >= 0 ? 2 : 3
}

/** The nearest town within 30 km, -1 when there is none. */
const nearestTown = (world: FeedWorld, lat: number, lon: number): number => {
  let best = -1
  let bestKm = Infinity
  world.forEachWithin(lat, lon, 30, (i) => {
    const km = haversineKm(lat, lon, world.lat[i]!, world.lon[i]!)
    if (km < bestKm || (km === bestKm && i < best)) {
      best = i
      bestKm = km
    }
  })
  return best
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5

/** Optional fields present with and without their default, as in the trip feed. */
const point = (
  rng: Random,
  id: number,
  name: string,
  city: string,
  /** The town as `name` writes it, for `full_name`. */
  townName: string,
  address: string | undefined,
  lat: number,
  lon: number,
  country: string,
  tags: ReadonlyArray<string>,
  status?: "removed"
): GeneratedMeetingPoint => {
  const p = { id } as Mutable<GeneratedMeetingPoint>
  if (status !== undefined || rng.chance(0.3)) p.status = status ?? "active"
  p.name = name
  p.full_name = `${name}, ${townName}`
  p.city = city
  if (address !== undefined) p.address = address
  p.lat = round5(lat)
  p.lon = round5(lon)
  p.country = country
  p.tags = tags
  return p
}
