import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { loadCityNames } from "../src/cityNames.js"
import { loadCities } from "../src/loadCities.js"
import { normalizeAnyName, normalizeName } from "../src/normalizeName.js"

describe("normalizeName", () => {
  it("ignores case, accents and punctuation", () => {
    expect(normalizeName("Saint-Étienne")).toBe("saint etienne")
    expect(normalizeName("  SAINT   étienne! ")).toBe("saint etienne")
    expect(normalizeName("L'Aquila")).toBe("l aquila")
    expect(normalizeName("São Paulo")).toBe("sao paulo")
  })

  it("folds letters that decomposition leaves alone", () => {
    expect(normalizeName("Straße")).toBe("strasse")
    expect(normalizeName("Łódź")).toBe("lodz")
    expect(normalizeName("Tromsø")).toBe("tromso")
    expect(normalizeName("Ærøskøbing")).toBe("aeroskobing")
    expect(normalizeName("Diyarbakır")).toBe("diyarbakir")
    expect(normalizeName("İstanbul")).toBe("istanbul")
    expect(normalizeName("Đakovo")).toBe("dakovo")
  })

  it("keeps non-Latin scripts, lowercased, with their diacritics dropped too", () => {
    expect(normalizeName("Орёл")).toBe("орел")
    expect(normalizeName("Київ")).toBe(normalizeName("КИЇВ"))
    expect(normalizeName("Санкт-Петербург")).toBe("санкт петербург")
  })

  it("gives the empty string for punctuation only", () => {
    expect(normalizeName(" ,-' ")).toBe("")
  })

  it("answers ASCII text as the general rule does: every name of GeoNames, and any ASCII string", () => {
    const cities = loadCities()
    const all = [...cities.map((c) => c.name), ...[...loadCityNames(cities).values()].flat()]
    const differ = all.filter((name) => normalizeName(name) !== normalizeAnyName(name))
    expect(differ).toEqual([])
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (text) => {
        expect(normalizeName(text)).toBe(normalizeAnyName(text))
      }),
      { numRuns: 5000 }
    )
  })
})
