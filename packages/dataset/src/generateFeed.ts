import type { Comfort, FeedQuestion, FeedTripInput } from "@tripsearch/core"
import { CAR_COLORS, CAR_MODELS, CAR_PICTURES } from "./carCatalog.js"
import { COUNTRY_PROFILES, type CountryProfile } from "./countryProfiles.js"
import { FeedWorld } from "./FeedWorld.js"
import { DenseNetwork } from "./DenseNetwork.js"
import { destinationPoint } from "./destinationPoint.js"
import { haversineKm } from "./haversineKm.js"
import { LANGUAGE_PACKS, type LanguagePack } from "./languagePacks.js"
import { cachedOffsetMinutes, localIso } from "./localIso.js"
import { legPrice } from "./legPrice.js"
import { namingLocale } from "./namingLocale.js"
import { CENTRE_MIN_POPULATION, MEETING_POINT_IDS, STATION_MIN_POPULATION } from "./meetingPointIds.js"
import { Random } from "./Random.js"
import { encodePath, type Road, RoadNetwork } from "./RoadNetwork.js"
import { TripNetwork } from "./TripNetwork.js"

export interface GenerateFeedOptions {
  /** Number of trips (lines) to generate. */
  readonly trips: number
  /** Same seed, same feed, byte for byte. */
  readonly seed: string | number
  /** Departures fall in [nowMs, nowMs + 30 days]; questions are asked before it. */
  readonly nowMs: number
  /**
   * Whether legs carry `path`, the driver's road (default true). Without roads the trips are the
   * same, field for field, only without `path`: the stop-overs are still drawn along the road.
   */
  readonly roads?: boolean
  /**
   * Every trip between two of its country's 100 largest towns, by gravity (`DenseNetwork`): a
   * feed where the big cities' pairs carry far more trips than in the default one.
   */
  readonly dense?: boolean
}

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
const WINDOW_MS = 30 * DAY_MS
const TEN_MINUTES_MS = 10 * MINUTE_MS
/** How far ahead most rides are offered: NEAR_SHARE of them within NEAR_DAYS days. */
const NEAR_DAYS = 14
const NEAR_SHARE = 0.7
const MEDIA = "https://media.tripsearch.example"
const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const COMFORTS: ReadonlyArray<Comfort> = ["Basic", "Normal", "Comfortable", "Luxury"]
const COMFORT_WEIGHTS = [15, 45, 30, 10]
const SEAT_WEIGHTS = [0, 8, 20, 35, 28, 4, 3, 1, 1]
const EXPERIENCE_WEIGHTS = [25, 30, 25, 13, 7]
const LUGGAGE = ["SMALL", "MIDDLE", "BIG"] as const
/** The detours a driver accepts besides none (`ON_TIME`, a third of the trips). */
const DETOURS = ["FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS"] as const
const ON_TIME_SHARE = 1 / 3
const SCHEDULES = ["NONE", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "WHATEVER_IT_TAKES"] as const
/** Under the 60 km of the short-distance service, with room for rounding each leg to 0.1 km. */
const SHORT_SERVICE_MAX_KM = 59
const ALPHANUMERIC = ID_ALPHABET.slice(0, 62)
const BOOKING_TYPES = ["online", "onboard", "no_booking"] as const
/** Share of the domestic trips drawn by the gravity model between agglomerations; the rest are regional. */
const NETWORK_SHARE = 0.85

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Waypoint = Mutable<FeedTripInput["waypoints"][number]>
// `path` is declared here until the core's feed model has it (issue 25); the JSON is the same.
type Leg = FeedTripInput["legs"][number]
type Driver = FeedTripInput["driver"]
type Car = FeedTripInput["car"]

/**
 * The kind of route a trip takes; decides how its ends are drawn. `network`: between two
 * agglomerations by gravity; `regional`: from any town to a town 20..300 km away; `dense`:
 * between two of the country's 100 largest towns (`--dense`).
 */
type RouteKind = "network" | "regional" | "crossBorder" | "short" | "dense"

interface Profiles {
  readonly list: ReadonlyArray<CountryProfile>
  readonly cumulative: Float64Array
}

const profiles: Profiles = {
  list: COUNTRY_PROFILES,
  cumulative: COUNTRY_PROFILES.reduce((acc, p, k) => {
    acc[k] = (k > 0 ? acc[k - 1]! : 0) + p.weight
    return acc
  }, new Float64Array(COUNTRY_PROFILES.length))
}
const totalWeight = profiles.cumulative[profiles.cumulative.length - 1]!

/**
 * The trip feed (the feed format, `FeedTrip`), one trip at a time and deterministic in `seed`: trips in every
 * locale country and some across borders, between real towns: most between agglomerations by
 * the gravity model of `TripNetwork`, the others regional, with stop-overs near the route, local
 * departure times over the next 30 days (most in the first two weeks), prices per km in
 * the country's currency, and every optional field and enumeration value represented. Each leg
 * carries its part of the trip's road (`RoadNetwork`) as `path`, unless `roads` is false.
 * Memory stays bounded whatever `trips` is: the city tables are built once and shared.
 */
export function* generateFeed(options: GenerateFeedOptions): Generator<FeedTripInput, void, undefined> {
  const world = FeedWorld.shared()
  const network = TripNetwork.shared(world)
  // A network of its own, not the shared one: its caches go when the generator is done with them.
  const roads = new RoadNetwork(world, network)
  const dense = options.dense === true ? DenseNetwork.shared(world) : undefined
  const rng = new Random(`feed|${options.seed}`)
  const idBase = rng.int(1_000_000_000, 1_900_000_000)
  for (let i = 0; i < options.trips; i++) yield generateTrip(world, network, roads, dense, rng, options, idBase + i)
}

const generateTrip = (
  world: FeedWorld,
  network: TripNetwork,
  roads: RoadNetwork,
  dense: DenseNetwork | undefined,
  rng: Random,
  options: GenerateFeedOptions,
  serial: number
): FeedTripInput => {
  const profile = profiles.list[rng.cumulative(profiles.cumulative)]!
  const country = profile.country
  const kind: RouteKind = dense?.has(country)
    ? "dense"
    : country === "FR" && rng.chance(0.12)
      ? "short"
      : profile.crossBorder && rng.chance(0.1)
        ? "crossBorder"
        : rng.chance(NETWORK_SHARE) && network.has(country)
          ? "network"
          : "regional"
  const route = drawRoute(world, network, dense, roads, rng, country, kind)
  const stops = route.stops
  const currency = profile.currency
  // The driver's language, not the trip's: a Belgian driver keeps one name across their trips.
  const driverIndex = rng.int(0, driverPoolSize(profile) - 1)
  const languageCode = profile.languages[driverIndex % profile.languages.length]!
  const language = LANGUAGE_PACKS[languageCode]
  // Addresses are the driver's words: the towns in them as the driver's language writes them.
  const addressLocale = namingLocale(languageCode, country)

  // Legs: road distance about 1.2 x great circle, speeds by leg length, prices by km.
  const eurPerKm = rng.between(0.05, 0.09)
  const exactPrices = rng.chance(0.1)
  const legs: Array<Leg> = []
  const waypoints: Array<Waypoint> = []
  let offset = 0
  for (let k = 0; k < stops.length; k++) {
    const c = stops[k]!
    if (k > 0) {
      const km = Math.round(world.distanceKm(stops[k - 1]!, c) * rng.between(1.15, 1.28) * 10) / 10
      const speed = (km < 20 ? 45 : km < 60 ? 62 : km < 150 ? 80 : 95) * rng.between(0.9, 1.1)
      const durationS = Math.max(5, Math.round((km / speed) * 60)) * 60
      const leg: Mutable<Leg> = { price: legPrice(km, eurPerKm, currency, exactPrices), distance_km: km, duration_s: durationS }
      if (options.roads !== false) leg.path = legPath(world, route, k - 1)
      legs.push(leg)
      // A pause at each stop-over shows in the offsets only: a segment's duration is the sum of
      // its legs (the feed format, `FeedTrip`), the offsets say when the car is where.
      offset += durationS / 60 + (k > 1 ? rng.int(0, 10) : 0)
    }
    const waypoint = { city: world.name[c]! } as Waypoint
    if (rng.chance(0.4)) waypoint.address = rng.pick(language.addresses).replace("{city}", world.localName(c, addressLocale))
    waypoint.lat = world.lat[c]!
    waypoint.lon = world.lon[c]!
    waypoint.country = world.country[c]!
    if (rng.chance(0.12)) {
      // The town's own meeting point: its station or its centre (towns under 5,000 have none).
      const station = rng.chance(0.5) && world.population[c]! >= STATION_MIN_POPULATION
      if (station) waypoint.meeting_point_id = MEETING_POINT_IDS.station(c)
      else if (world.population[c]! >= CENTRE_MIN_POPULATION) waypoint.meeting_point_id = MEETING_POINT_IDS.centre(c)
    }
    waypoint.offset_min = offset
    waypoints.push(waypoint)
  }

  const origin = stops[0]!
  const zone = world.zone(origin)
  const departureMs = drawDeparture(rng, options.nowMs, zone)
  const seats = rng.weighted(SEAT_WEIGHTS)
  const seatsLeft = rng.chance(0.08) ? 0 : rng.int(1, seats)
  const { driver, car } = driverOf(options.seed, country, driverIndex, language)
  const comfortable = car.comfort_nb_star >= 3
  const status = rng.chance(0.02) ? "cancelled" : "active"

  // Optional fields are present with their default value on some trips and absent on others, so
  // that importers see both forms; keys follow the order of `FeedTrip`.
  const trip = { id: `${serial}-${world.slug[origin]}-${world.slug[stops[stops.length - 1]!]}` } as Mutable<FeedTripInput>
  if (status === "cancelled" || rng.chance(0.5)) trip.status = status
  trip.departure_time = localIso(departureMs, zone)
  trip.waypoints = waypoints
  trip.legs = legs
  trip.currency = currency
  trip.seats = seats
  trip.seats_left = seatsLeft
  if (rng.chance(0.4)) trip.seats_count_origin = seats
  trip.booking_mode = rng.chance(0.4) ? "auto" : "manual"
  trip.booking_type = BOOKING_TYPES[rng.weighted([70, 20, 10])]!
  if (route.kind === "short") trip.service = "short"
  else if (rng.chance(0.3)) trip.service = "standard"
  if (country === "IT" && rng.chance(0.15)) trip.viaggio_rosa = rng.chance(0.5)
  if (comfortable || rng.chance(0.1)) trip.is_comfort = comfortable && rng.chance(0.4)
  if (rng.chance(0.7)) trip.luggage = LUGGAGE[rng.weighted([25, 55, 20])]!
  if (rng.chance(ON_TIME_SHARE)) trip.detour = "ON_TIME"
  else if (rng.chance(0.5)) trip.detour = DETOURS[rng.weighted([40, 25, 10, 5])]!
  if (rng.chance(0.6)) trip.schedule = SCHEDULES[rng.weighted([15, 45, 30, 10])]!
  if (rng.chance(0.6)) trip.comment = commentOf(rng, language)
  if (rng.chance(0.2)) trip.messaging_status = rng.chance(0.6) ? "private" : "public"
  if (rng.chance(0.5)) trip.answer_delay = rng.int(0, 2880)
  if (rng.chance(0.8)) trip.view_count = Math.floor(rng.next() ** 2 * 600)
  trip.car = car
  trip.driver = driver
  if (seatsLeft < seats && rng.chance(0.5)) trip.passengers = passengersOf(rng, language, Math.min(4, seats - seatsLeft))
  if (rng.chance(0.1)) trip.vehicle_pictures = Array.from({ length: rng.int(1, 3) }, () => `${MEDIA}/vehicles/${rng.string(ALPHANUMERIC, 16)}.jpg`)
  if (rng.chance(0.15)) trip.questions = questionsOf(rng, language, options.nowMs, departureMs, zone)
  return trip
}

interface Route {
  readonly kind: RouteKind
  /** City indices of the waypoints, in order. */
  readonly stops: ReadonlyArray<number>
  /** The road from the first waypoint to the last. */
  readonly road: Road
  /** Per waypoint, the index of the road point where it joins the road (0 and the last for the ends). */
  readonly anchors: ReadonlyArray<number>
}

interface StopOvers {
  readonly stops: ReadonlyArray<number>
  readonly road: Road
  readonly anchors: ReadonlyArray<number>
}

const drawRoute = (
  world: FeedWorld,
  network: TripNetwork,
  dense: DenseNetwork | undefined,
  roads: RoadNetwork,
  rng: Random,
  country: string,
  kind: RouteKind
): Route => {
  if (kind === "network" || kind === "dense") {
    const [origin, destination] = kind === "dense" ? dense!.drawTrip(country, rng) : network.drawTrip(country, rng)
    return { kind, ...withStopOvers(world, roads, rng, origin, destination, stopCount(rng, world.distanceKm(origin, destination)), true) }
  }
  const origin = world.cityOf(country, rng)
  const sameCountry = (i: number) => world.country[i] === country && i !== origin
  if (kind === "short") {
    for (let attempt = 0; attempt < 8; attempt++) {
      const [lat, lon] = destinationPoint(world.lat[origin]!, world.lon[origin]!, rng.next() * 2 * Math.PI, rng.between(10, 40))
      const destination = world.near(lat, lon, 8, 0.6, rng, sameCountry)
      // Road distance at most 1.28 x great circle: keep the whole trip under the service's limit.
      if (destination >= 0 && world.distanceKm(origin, destination) * 1.28 < SHORT_SERVICE_MAX_KM) {
        return { kind, ...withStopOvers(world, roads, rng, origin, destination, rng.chance(0.8) ? 0 : 1, true, SHORT_SERVICE_MAX_KM) }
      }
    }
    kind = "regional"
  }
  if (kind === "crossBorder") {
    for (let attempt = 0; attempt < 10; attempt++) {
      const distance = rng.between(40, 600)
      const [lat, lon] = destinationPoint(world.lat[origin]!, world.lon[origin]!, rng.next() * 2 * Math.PI, distance)
      const destination = world.near(lat, lon, Math.max(15, distance * 0.1), 0.75, rng, (i) => world.country[i] !== country)
      if (destination >= 0) return { kind, ...withStopOvers(world, roads, rng, origin, destination, stopCount(rng, world.distanceKm(origin, destination)), false) }
    }
    kind = "regional"
  }
  let destination = -1
  for (let attempt = 0; attempt < 12 && destination < 0; attempt++) {
    // Log-uniform 20..300 km: the long axes are the network's.
    const distance = 20 * Math.exp(rng.next() * Math.log(300 / 20))
    const [lat, lon] = destinationPoint(world.lat[origin]!, world.lon[origin]!, rng.next() * 2 * Math.PI, distance)
    destination = world.near(lat, lon, Math.max(10, Math.min(50, distance * 0.1)), 0.75, rng, sameCountry)
  }
  // Islands and small countries: any other town of the country.
  for (let attempt = 0; attempt < 20 && destination < 0; attempt++) {
    const candidate = world.cityOf(country, rng)
    if (candidate !== origin) destination = candidate
  }
  return { kind, ...withStopOvers(world, roads, rng, origin, destination, stopCount(rng, world.distanceKm(origin, destination)), true) }
}

/** How many stop-overs a trip of this length has: none for most, up to 8 on long ones. */
const stopCount = (rng: Random, km: number): number => {
  const max = Math.min(8, Math.floor(km / 50))
  if (max === 0 || rng.chance(0.45)) return 0
  return Math.min(max, 1 + Math.floor(rng.next() ** 2 * max))
}

/**
 * Origin, stop-overs at real towns near evenly spread points of the road (a driver leaves the
 * motorway for a town beside it, and comes back to it), destination. A stop with no town near its
 * point is dropped, so the count is at most `count`.
 */
const withStopOvers = (
  world: FeedWorld,
  roads: RoadNetwork,
  rng: Random,
  origin: number,
  destination: number,
  count: number,
  domestic: boolean,
  maxRoadKm = Infinity
): StopOvers => {
  const road = roads.road(origin, destination)
  const last = road.size - 1
  const stops = [origin]
  const anchors = [0]
  const radius = Math.max(4, Math.min(15, world.distanceKm(origin, destination) * 0.05))
  const country = world.country[origin]
  let travelled = 0
  for (let k = 1; k <= count; k++) {
    const t = (k + rng.between(-0.3, 0.3)) / (count + 1)
    const at = Math.min(last - 1, Math.max(1, Math.round(t * last)))
    const stop = world.near(road.latAt(at), road.lonAt(at), radius, 0.9, rng, (i) =>
      i !== destination && !stops.includes(i) && (!domestic || world.country[i] === country)
    )
    if (stop < 0 || at <= anchors[anchors.length - 1]!) continue
    const added = world.distanceKm(stops[stops.length - 1]!, stop)
    if ((travelled + added + world.distanceKm(stop, destination)) * 1.28 >= maxRoadKm) continue
    travelled += added
    stops.push(stop)
    anchors.push(at)
  }
  stops.push(destination)
  anchors.push(last)
  return { stops, road, anchors }
}

/** Between a town and the road point it joins the road at: a straight spur, a point every 1.5 km. */
const SPUR_STEP_KM = 1.5

/**
 * Leg `k`'s path: the part of the trip's road between its two waypoints, from the first to the
 * second; a stop-over's spur to and from the road at either end. A trip without stop-overs has the
 * road's own encoded string, computed once for every trip between the same towns.
 */
const legPath = (world: FeedWorld, route: Route, k: number): string => {
  const { road, stops, anchors } = route
  if (stops.length === 2) return road.encoded()
  const lat: Array<number> = []
  const lon: Array<number> = []
  const from = anchors[k]!
  const to = anchors[k + 1]!
  if (k > 0) {
    lat.push(world.lat[stops[k]!]!)
    lon.push(world.lon[stops[k]!]!)
    spur(lat, lon, road.latAt(from), road.lonAt(from))
  }
  // A stop-over's spur ends on the road point `from`: the road goes on from the next one.
  road.appendPoints(k > 0 ? from + 1 : from, to, lat, lon)
  if (k + 1 < stops.length - 1) spur(lat, lon, world.lat[stops[k + 1]!]!, world.lon[stops[k + 1]!]!)
  return encodePath(lat, lon, 0, lat.length)
}

/** Appends the points from the arrays' last point to (lat, lon), that one included. */
const spur = (lat: Array<number>, lon: Array<number>, toLat: number, toLon: number): void => {
  const fromLat = lat[lat.length - 1]!
  const fromLon = lon[lon.length - 1]!
  const n = Math.max(1, Math.ceil(haversineKm(fromLat, fromLon, toLat, toLon) / SPUR_STEP_KM))
  for (let i = 1; i < n; i++) {
    lat.push(fromLat + ((toLat - fromLat) * i) / n)
    lon.push(fromLon + ((toLon - fromLon) * i) / n)
  }
  lat.push(toLat)
  lon.push(toLon)
}

/**
 * A departure in [now, now + 30 days] on a 10-minute mark, mostly in local daytime. Drivers offer
 * a ride days ahead, rarely weeks: NEAR_SHARE of the trips leave within NEAR_DAYS, the others on
 * any day of the 30, so the next two weeks hold about four fifths of the trips, evenly.
 */
const drawDeparture = (rng: Random, nowMs: number, zone: string): number => {
  const first = Math.ceil(nowMs / TEN_MINUTES_MS) * TEN_MINUTES_MS
  const slots = Math.floor((nowMs + WINDOW_MS - first) / TEN_MINUTES_MS)
  const nearSlots = Math.min(slots, Math.floor((NEAR_DAYS * DAY_MS) / TEN_MINUTES_MS))
  let ms = first
  for (let attempt = 0; attempt < 3; attempt++) {
    ms = first + rng.int(0, rng.chance(NEAR_SHARE) ? nearSlots : slots) * TEN_MINUTES_MS
    const hour = new Date(ms + cachedOffsetMinutes(zone, ms) * MINUTE_MS).getUTCHours()
    if (hour >= 5 && hour < 23) break
    if (!rng.chance(0.85)) break
  }
  return ms
}

/**
 * Drivers per country, independent of the feed's length so that a shorter feed is a prefix of a
 * longer one with the same seed.
 */
const driverPoolSize = (profile: CountryProfile): number => Math.ceil((400_000 * profile.weight) / totalWeight)

interface DriverWithCar {
  readonly driver: Driver
  readonly car: Car
}

/**
 * The driver of index `index` in a country's pool, with their car: the same on every trip of that
 * driver, because it is drawn from a generator seeded by the driver alone.
 */
const driverOf = (seed: string | number, country: string, index: number, language: LanguagePack): DriverWithCar => {
  const rng = new Random(`driver|${seed}|${country}|${index}`)
  const name = `${rng.pick(language.firstNames)} ${String.fromCharCode(65 + rng.int(0, 25))}.`
  const driver: Driver = {
    id: `d-${country.toLowerCase()}-${index}`,
    display_name: name,
    picture: rng.chance(0.65) ? `${MEDIA}/avatars/${rng.string(ALPHANUMERIC, 20)}.jpg` : null,
    experience: rng.weighted(EXPERIENCE_WEIGHTS)
  }
  const model = rng.pick(CAR_MODELS)
  const comfort = rng.chance(0.7) ? model.comfort : COMFORTS[rng.weighted(COMFORT_WEIGHTS)]!
  const car = { id: rng.string(ID_ALPHABET, 22), make: model.make, model: model.model } as Mutable<Car>
  if (rng.chance(0.85)) {
    const [color, hexa] = rng.pick(CAR_COLORS)
    car.color = color
    if (rng.chance(0.9)) car.color_hexa = hexa
  }
  car.comfort = comfort
  car.comfort_nb_star = COMFORTS.indexOf(comfort) + 1
  if (rng.chance(0.7)) car.number_of_seat = rng.int(4, 7)
  car.category = model.category
  if (rng.chance(0.6)) car.picture = `${MEDIA}/icons/vehicles/${rng.pick(CAR_PICTURES)}.svg`
  return { driver, car }
}

const commentOf = (rng: Random, language: LanguagePack): string => {
  const first = rng.pick(language.comments)
  if (rng.chance(0.7)) return first
  // Some drivers write every sentence they have; a few paste the same text up to the limit.
  const all = [first, ...language.comments.filter((c) => c !== first)].join(" ")
  return rng.chance(0.03) ? all.repeat(Math.ceil(2000 / all.length)).slice(0, 1990 + rng.int(0, 10)) : all
}

const passengersOf = (rng: Random, language: LanguagePack, count: number): FeedTripInput["passengers"] =>
  Array.from({ length: count }, () => {
    const passenger: Mutable<NonNullable<FeedTripInput["passengers"]>[number]> = {
      id: `u-${rng.string(ALPHANUMERIC, 12)}`,
      display_name: `${rng.pick(language.firstNames)} ${String.fromCharCode(65 + rng.int(0, 25))}.`
    }
    if (rng.chance(0.5)) passenger.picture = `${MEDIA}/avatars/${rng.string(ALPHANUMERIC, 20)}.jpg`
    return passenger
  })

/** Questions asked before now (and before departure), most of them answered shortly after. */
const questionsOf = (rng: Random, language: LanguagePack, nowMs: number, departureMs: number, zone: string): ReadonlyArray<FeedQuestion> =>
  Array.from({ length: rng.int(1, 3) }, () => {
    const [text, reply] = rng.pick(language.questions)
    const askedMs = Math.min(nowMs, departureMs) - rng.int(10, 14 * 24 * 60) * MINUTE_MS
    const question: Mutable<FeedQuestion> = { id: `q-${rng.string(ALPHANUMERIC, 12)}`, question: text, asked_at: localIso(askedMs, zone) }
    if (rng.chance(0.7)) {
      question.answer = reply
      question.answered_at = localIso(Math.min(nowMs, askedMs + rng.int(5, 48 * 60) * MINUTE_MS), zone)
    }
    return question
  })
