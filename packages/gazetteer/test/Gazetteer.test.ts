import { Option } from "effect"
import { isCountryCode } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { CITY_NAME_LANGUAGES } from "../src/cityNames.js"
import { Gazetteer } from "../src/Gazetteer.js"
import type { GazetteerCity } from "../src/GazetteerCity.js"

const city = (id: number, name: string, country: string, population: number): GazetteerCity => ({
  id, name, country, population, lat: id, lon: -id, featureCode: "PPL", adminCode: "01"
})

describe("Gazetteer on a small hand-made set", () => {
  const g = new Gazetteer(
    [
      city(1, "Springfield", "US", 150_000),
      city(2, "Springfield", "GB", 2_000),
      city(3, "Springfield", "AU", 150_000),
      city(4, "Neustadt", "DE", 40_000),
      city(5, "Neustadt", "AT", 9_000),
      city(6, "Monaco", "MC", 38_000)
    ],
    // A Polish catalogue entry for city 4, and one for a city the set lacks.
    new Map([[4, CITY_NAME_LANGUAGES.map((l) => (l === "pl" ? "Nowe Miasto" : ""))], [999, CITY_NAME_LANGUAGES.map(() => "Gone")]])
  )
  const resolved = (text: string, country: string) => Option.getOrNull(g.resolve(text, country))

  it("prefers the locale's country over a larger city elsewhere", () => {
    expect(resolved("Springfield", "GB")).toMatchObject({ country: "GB", lat: 2 })
    expect(resolved("Neustadt", "AT")).toMatchObject({ country: "AT" })
  })

  it("then the largest population, then the smallest id on equal populations", () => {
    expect(resolved("Springfield", "FR")).toMatchObject({ country: "US", lat: 1 })
    expect(resolved("Neustadt", "FR")).toMatchObject({ country: "DE" })
  })

  it("restricts to the country a part names, by code or by name", () => {
    expect(resolved("Springfield, AU", "GB")).toMatchObject({ country: "AU" })
    expect(resolved("springfield , Australia", "GB")).toMatchObject({ country: "AU" })
    expect(resolved("Springfield, Österreich", "GB")).toBeNull()
    expect(resolved("Springfield, GB, AU", "US")).toMatchObject({ country: "AU" })
    expect(resolved("Springfield, GB, AU", "GB")).toMatchObject({ country: "GB" })
  })

  it("tries city parts in order: the first part with a candidate wins", () => {
    expect(resolved("Nowhere, Neustadt", "AT")).toMatchObject({ country: "AT" })
    expect(resolved("Neustadt, Springfield", "GB")).toMatchObject({ country: "DE" })
  })

  it("resolves catalogue entries and ignores those naming cities it lacks", () => {
    expect(resolved("nowe miasto", "PL")).toMatchObject({ name: "Neustadt", country: "DE" })
    expect(resolved("Gone", "XX")).toBeNull()
  })

  it("reads a lone country name as a city name", () => {
    expect(resolved("Monaco", "FR")).toMatchObject({ name: "Monaco", country: "MC" })
  })

  it("resolves nothing for unknown or empty text", () => {
    expect(Option.isNone(g.resolve("Atlantis", "GR"))).toBe(true)
    expect(Option.isNone(g.resolve(" , ,", "GR"))).toBe(true)
    expect(Option.isNone(g.resolve("FR", "FR"))).toBe(true)
  })

  it("lists a country's cities largest first, above a population", () => {
    expect(g.citiesOf("US").map((c) => c.id)).toEqual([1])
    expect(new Gazetteer([city(7, "A", "FR", 5_000), city(8, "B", "FR", 50_000), city(9, "C", "FR", 1_500)]).citiesOf("FR", 2_000).map((c) => c.id)).toEqual([8, 7])
  })
})

describe("Gazetteer.shared (GeoNames)", () => {
  const g = Gazetteer.shared()
  const resolved = (text: string, country: string) => Option.getOrNull(g.resolve(text, country))

  it("has every city in a country the feeds accept (ISO 3166-1, and XK for Kosovo)", () => {
    const outside = new Set(g.cities.map((c) => c.country).filter((country) => !isCountryCode(country)))
    expect([...outside]).toEqual([])
  })

  it("keeps only cities of at least 1,000 inhabitants, with coordinates", () => {
    expect(g.cities.length).toBeGreaterThan(100_000)
    expect(g.cities.every((c) => c.population >= 1000 && Number.isFinite(c.lat) && Number.isFinite(c.lon))).toBe(true)
  })

  it("resolves the cases the place rules rely on", () => {
    expect(resolved("Paris", "GB")).toMatchObject({ name: "Paris", country: "FR" })
    expect(resolved("paris, fr", "GB")).toMatchObject({ name: "Paris", country: "FR" })
    expect(resolved("Paris, US", "GB")).toMatchObject({ name: "Paris", country: "US" })
    expect(resolved("München", "GB")).toMatchObject({ name: "Munich", country: "DE" })
    expect(resolved("Sevilla, Spain", "GB")).toMatchObject({ name: "Sevilla", country: "ES" })
    expect(resolved("Roma", "IT")).toMatchObject({ name: "Rome", country: "IT" })
    expect(resolved("Roma", "GB")).toMatchObject({ name: "Rome", country: "IT" })
    expect(resolved("Saint-Étienne", "GB")).toMatchObject({ name: "Saint-Étienne", country: "FR" })
    expect(resolved("saint etienne", "FR")).toMatchObject({ name: "Saint-Étienne", country: "FR" })
  })

  it("resolves native and English forms of big cities", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["Wien", "Vienna", "AT"], ["Praha", "Prague", "CZ"], ["Warszawa", "Warsaw", "PL"], ["Krakow", "Kraków", "PL"],
      ["Milano", "Milan", "IT"], ["Napoli", "Naples", "IT"], ["Firenze", "Florence", "IT"], ["Torino", "Turin", "IT"],
      ["Venezia", "Venice", "IT"], ["Genova", "Genoa", "IT"], ["Lisboa", "Lisbon", "PT"], ["Bruxelles", "Brussels", "BE"],
      ["Brussel", "Brussels", "BE"], ["Antwerp", "Antwerpen", "BE"], ["Anvers", "Antwerpen", "BE"], ["Den Haag", "The Hague", "NL"],
      ["Moskva", "Moscow", "RU"], ["Москва", "Moscow", "RU"], ["Sankt-Peterburg", "Saint Petersburg", "RU"], ["Kiev", "Kyiv", "UA"],
      ["Київ", "Kyiv", "UA"], ["Bucuresti", "Bucharest", "RO"], ["Beograd", "Belgrade", "RS"], ["Zurich", "Zürich", "CH"],
      ["Geneva", "Genève", "CH"], ["Seville", "Sevilla", "ES"], ["A Coruna", "A Coruña", "ES"], ["Athens", "Athens", "GR"],
      ["Ciudad de México", "Mexico City", "MX"], ["Sao Paulo", "São Paulo", "BR"], ["İstanbul", "Istanbul", "TR"],
      ["Cologne", "Köln", "DE"], ["Bombay", "Mumbai", "IN"], ["Lodz", "Łódź", "PL"]
    ]
    for (const [text, name, country] of cases) expect([text, resolved(text, "GB")]).toEqual([text, expect.objectContaining({ name, country })])
  })

  it("lets the locale's country win a shared name", () => {
    expect(resolved("Bruges", "FR")).toMatchObject({ country: "FR" })
    expect(resolved("Bruges", "GB")).toMatchObject({ name: "Brugge", country: "BE" })
    expect(resolved("Valence", "FR")).toMatchObject({ name: "Valence", country: "FR" })
    expect(resolved("Valence", "ES")).toMatchObject({ name: "Valencia", country: "ES" })
  })

  it("resolves nothing for names it does not know", () => {
    expect(Option.isNone(g.resolve("Qwzxplk", "FR"))).toBe(true)
    expect(Option.isNone(g.resolve("Paris, Japan", "FR"))).toBe(true)
  })

  it("knows no names beyond GeoNames' own and its catalogues' (docs/API.md, fn)", () => {
    // Spellings no catalogue writes: not found, or read as the city that has them as its name.
    for (const text of ["Muenchen", "Koeln", "CDMX", "Leningrad", "Athína"]) expect([text, resolved(text, "GB")]).toEqual([text, null])
    expect(resolved("Rio", "GB")).toMatchObject({ name: "Río", country: "GR" })
    expect(resolved("Madras", "GB")).toMatchObject({ name: "Madras", country: "US" })
    expect(resolved("Valenza", "ES")).toMatchObject({ name: "Valenza", country: "IT" })
  })
})
