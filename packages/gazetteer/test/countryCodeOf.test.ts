import { describe, expect, it } from "vitest"
import { countryCodeOf } from "../src/countryCodeOf.js"

describe("countryCodeOf", () => {
  it("reads alpha-2 codes in any case", () => {
    expect(countryCodeOf("fr")).toBe("FR")
    expect(countryCodeOf("FR")).toBe("FR")
    expect(countryCodeOf(" De ")).toBe("DE")
  })

  it("reads country names in the supported languages, accents ignored", () => {
    expect(countryCodeOf("Spain")).toBe("ES")
    expect(countryCodeOf("España")).toBe("ES")
    expect(countryCodeOf("espana")).toBe("ES")
    expect(countryCodeOf("Deutschland")).toBe("DE")
    expect(countryCodeOf("Allemagne")).toBe("DE")
    expect(countryCodeOf("Niemcy")).toBe("DE")
    expect(countryCodeOf("Германия")).toBe("DE")
    expect(countryCodeOf("Almanya")).toBe("DE")
    expect(countryCodeOf("Nizozemsko")).toBe("NL")
    expect(countryCodeOf("Srbija")).toBe("RS")
    expect(countryCodeOf("Україна")).toBe("UA")
    expect(countryCodeOf("United Kingdom")).toBe("GB")
    expect(countryCodeOf("UK")).toBe("GB")
    expect(countryCodeOf("Turkey")).toBe("TR")
  })

  it("does not take groupings, pseudo-regions or city names for countries", () => {
    expect(countryCodeOf("EU")).toBeUndefined()
    expect(countryCodeOf("European Union")).toBeUndefined()
    expect(countryCodeOf("ZZ")).toBeUndefined()
    expect(countryCodeOf("Paris")).toBeUndefined()
    expect(countryCodeOf("")).toBeUndefined()
  })
})
