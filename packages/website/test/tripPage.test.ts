import { LOCALES, type LocaleCode } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { carColour } from "../src/carColour.js"
import { CATALOGUES, translatorOf } from "../src/messages/catalogue.js"
import { en } from "../src/messages/en.js"
import { alongTheRoad } from "../src/searchPage.js"
import { threadsByDate, tripPage } from "../src/tripPage.js"
import { formatDuration, formatKm } from "../src/units.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** The colours the generator's drivers pick (packages/dataset/src/carCatalog.ts, CAR_COLORS). */
const FEED_COLOURS = ["Black", "White", "Grey", "Dark grey", "Silver", "Dark blue", "Blue", "Red", "Green", "Beige", "Brown", "Yellow", "Orange"]

const trip = (extra: Json = {}): Json => ({
  permanent_id: "t1",
  departure_date: "2026-11-20 08:00:00",
  price: { string_value: "12,00 €" },
  seats_left: 2,
  seats: 3,
  departure_place: { city_name: "Paris", latitude: 48.85, longitude: 2.35 },
  arrival_place: { city_name: "Lyon", latitude: 45.76, longitude: 4.84 },
  stop_overs: [
    { city_name: "Paris", latitude: 48.85, longitude: 2.35, departure_place: true },
    { city_name: "Lyon", latitude: 45.76, longitude: 4.84, arrival_place: true }
  ],
  trip_plan: [{ date: "2026-11-20 08:00:00" }, { date: "2026-11-20 16:14:00" }],
  duration: { value: 8 * 3600 + 14 * 60, unity: "s" },
  distance: { value: 644, unity: "km" },
  car: { make: "MERCEDES", model: "GLA 200 CDI", color: "Black", comfort_nb_star: 3 },
  booking_mode: "auto",
  booking_type: "online",
  ...extra
})

const render = (locale: LocaleCode, extra: Json = {}, threads: ReadonlyArray<Json> = []): string =>
  tripPage(trip(extra), threads, `locale=${locale}`, locale, translatorOf(locale)).content.text

describe("the car's colour", () => {
  it("is named in the page's language for every colour of the feed, in every locale's language", () => {
    for (const locale of LOCALES) {
      const t = translatorOf(locale)
      const names = FEED_COLOURS.map((c) => carColour(c, t))
      // Thirteen colours, thirteen names; none left in English outside English.
      expect(new Set(names).size, locale).toBe(FEED_COLOURS.length)
      if (!locale.startsWith("en")) expect(names.filter((n, k) => n === FEED_COLOURS[k] && n !== "Beige" && n !== "Orange"), locale).toEqual([])
    }
    expect(render("ru_RU")).toContain("MERCEDES GLA 200 CDI, Чёрный")
    expect(render("fr_FR", { car: { make: "SEAT", model: "IBIZA", color: "Dark grey", comfort_nb_star: 2 } })).toContain("SEAT IBIZA, Gris foncé")
    expect(carColour("dark  GREY", translatorOf("de_DE"))).toBe("Dunkelgrau")
  })

  it("is the feed's own text when it is not one of the feed's colours", () => {
    expect(carColour("Bordeaux métallisé", translatorOf("pl_PL"))).toBe("Bordeaux métallisé")
    expect(render("de_DE", { car: { make: "VW", model: "GOLF", color: "Petrol", comfort_nb_star: 2 } })).toContain("VW GOLF, Petrol")
  })
})

describe("durations and distances", () => {
  it("are written with the locale's own units and separators", () => {
    const s = 8 * 3600 + 14 * 60
    expect(formatDuration(s, "ru_RU")).toBe("8 ч 14 мин")
    expect(formatDuration(s, "de_DE")).toBe("8 Std., 14 Min.")
    expect(formatDuration(s, "uk_UA")).toBe("8 год і 14 хв")
    expect(formatDuration(s, "en_GB")).toBe("8 hrs 14 mins")
    expect(formatDuration(3600, "fr_FR")).toBe("1\u202fh")
    expect(formatDuration(25 * 60, "pl_PL")).toBe("25 min")
    // 59.6 minutes round up to the hour, not "0 h 60".
    expect(formatDuration(3599, "cs_CZ")).toBe("1 h")
    expect(formatKm(644_000, "ru_RU")).toBe("644 км")
    expect(formatKm(100, "ru_RU")).toBe("0,1 км")
    expect(formatKm(644_000, "tr_TR")).toBe("644 km")
  })

  it("on the trip page as in the search list", () => {
    const ru = render("ru_RU")
    expect(ru).toContain("<dd>8 ч 14 мин</dd>")
    expect(ru).toContain("<dd>644 км</dd>")
    expect(render("hu_HU")).toContain("<dd>8 ó és 14 p</dd>")
    expect(render("sr_Latn_RS")).toContain("<dd>8 sati i 14 min</dd>")
    for (const locale of LOCALES) expect(render(locale), locale).not.toMatch(/8 h 14</)
  })
})

describe("the trip page's labels", () => {
  it("puts a narrow no-break space before every colon of French, and none where other languages have none", () => {
    const fr = render("fr_FR")
    expect(fr).toContain("Départ\u202f: <strong>")
    expect(fr).toContain("Prix\u202f: <strong class=\"price\">12,00 €</strong>")
    expect(fr).toContain("Prise en charge\u202f: Paris")
    expect(render("en_GB")).toContain("Departure: <strong>")
    for (const [k, text] of Object.entries(CATALOGUES.fr!)) expect(text, k).not.toMatch(/[ \u00a0][:;?!»]|« /)
  })

  it("names the pickup and drop-off with the words of the list's rides along the road", () => {
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      if (language === "en") continue
      for (const [label, along] of [["pickup", "picked_up_along"], ["dropoff", "dropped_off_along"], ["pickup", "picked_up_in_town"], ["dropoff", "dropped_off_in_town"]] as const)
        expect(catalogue[along], `${language}.${along}`).toMatch(new RegExp(`^${catalogue[label]}(?!\\p{L})`, "u"))
    }
    expect(render("de_DE")).toContain("Zustieg: Paris")
    expect(render("de_DE")).toContain("Ausstieg: Lyon")
  })

  it("says that a meeting point under 50 m from the town searched is in the town, not at 0 km", () => {
    const ride = (m: number): Json => ({
      permanent_id: "t1_m5_2",
      corridoring_type: "CORRIDORING",
      departure_place: { city_name: "Augsburg" },
      departure_meeting_point: { id: 5, name: "Hauptbahnhof" },
      departure_passenger_routing: { routes: [{ distance_in_meters: m }] }
    })
    const said = (m: number, locale: LocaleCode) => alongTheRoad(ride(m), { from: "Augsburg" }, locale, translatorOf(locale))[0]!.text
    expect(said(20, "de_DE")).toBe("Zustieg an Hauptbahnhof, direkt in Augsburg")
    expect(said(60, "de_DE")).toBe("Zustieg an Hauptbahnhof, 0,1 km von Augsburg entfernt")
    expect(said(0, "en_GB")).toBe("Picked up at Hauptbahnhof, in Augsburg itself")
    expect(said(0, "ru_RU")).toBe("Посадка: Hauptbahnhof, в самом населённом пункте Augsburg")
  })

  it("lists the questions oldest first, whatever the API's order", () => {
    const threads = [
      { id: "a", question: "Twenty?", asked_at: "2026-11-20T10:00:00+01:00" },
      { id: "b", question: "Twenty-six?", asked_at: "2026-11-26T09:00:00+01:00", answer: "Yes", answered_at: "2026-11-26T10:00:00+01:00" },
      { id: "c", question: "Eighteen?", asked_at: "2026-11-18T23:30:00-05:00" },
      { id: "d", question: "Eighteen too?", asked_at: "2026-11-19T05:30:00+01:00" }
    ]
    // Compared as instants: c and d are both 19 Nov 04:30 UTC, kept in the API's order.
    expect(threadsByDate(threads).map((q) => q.id)).toEqual(["c", "d", "a", "b"])
    const page = render("fr_FR", {}, threads)
    expect([...page.matchAll(/<dt>([^<]*) <small>/g)].map((m) => m[1])).toEqual(["Eighteen?", "Eighteen too?", "Twenty?", "Twenty-six?"])
  })
})

describe("the new messages", () => {
  it("are in every locale's language", () => {
    const added = Object.keys(en).filter((k) => /^(color_|trip_gone_|near_town|picked_up_in_town|dropped_off_in_town)/.test(k))
    expect(added.length).toBe(18)
    for (const [language, catalogue] of Object.entries(CATALOGUES))
      for (const k of added) expect(catalogue[k as keyof typeof en] ?? (language === "en" ? "" : undefined), `${language}.${k}`).toBeDefined()
  })
})
