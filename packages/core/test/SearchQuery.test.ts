import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { decodeSearchQuery } from "@tripsearch/core"

const base = { locale: "fr_FR", cur: "EUR" }
const decode = (extra: Record<string, string | Array<string>>, withBase = true) => decodeSearchQuery(withBase ? { ...base, ...extra } : extra)
const rejected = (extra: Record<string, string | Array<string>>, withBase = true) => {
  const r = decode(extra, withBase)
  if (Either.isRight(r)) throw new Error(`accepted ${JSON.stringify(extra)}`)
  return r.left
}

// Each invalid value of a search parameter, with the parameter the 400 must name.
const INVALID: ReadonlyArray<[string, Record<string, string | Array<string>>, string, boolean?]> = [
  ["locale absent", { cur: "EUR" }, "locale", false],
  ["locale unknown", { locale: "fr_CA", cur: "EUR" }, "locale", false],
  ["cur absent", { locale: "fr_FR" }, "cur", false],
  ["cur not the locale's", { cur: "GBP" }, "cur"],
  ["cur unknown", { cur: "USD" }, "cur"],
  ["cur alternative of another locale", { locale: "de_DE", cur: "RUB" }, "cur", false],
  ["_format", { _format: "yaml" }, "_format"],
  ["fc not two floats", { fc: "48.8" }, "fc"],
  ["fc latitude out of range", { fc: "91|2" }, "fc"],
  ["tc longitude out of range", { tc: "45|181" }, "tc"],
  ["tc letters", { tc: "a|b" }, "tc"],
  ["db bad format", { db: "22/11/2026" }, "db"],
  ["db impossible date", { db: "2026-02-30" }, "db"],
  ["de bad time", { de: "2026-11-22 25:00:00" }, "de"],
  ["de before db", { db: "2026-11-23", de: "2026-11-22" }, "de"],
  ["de before db's time", { db: "2026-11-23 10:00:00", de: "2026-11-23 09:00:00" }, "de"],
  ["hb negative", { hb: "-1" }, "hb"],
  ["hb 24", { hb: "24" }, "hb"],
  ["hb decimal", { hb: "1.5" }, "hb"],
  ["he 0", { he: "0" }, "he"],
  ["he 25", { he: "25" }, "he"],
  ["he equal to hb", { hb: "8", he: "8" }, "he"],
  ["he below hb", { hb: "9", he: "8" }, "he"],
  ["seats 0", { seats: "0" }, "seats"],
  ["seats 9", { seats: "9" }, "seats"],
  ["seats text", { seats: "two" }, "seats"],
  ["photo 2", { photo: "2" }, "photo"],
  ["photo true", { photo: "true" }, "photo"],
  ["aa 2", { aa: "2" }, "aa"],
  ["shortlines yes", { shortlines: "yes" }, "shortlines"],
  ["pmin alone", { pmin: "5" }, "pmax"],
  ["pmax alone", { pmax: "5" }, "pmin"],
  ["pmin equal to pmax", { pmin: "5", pmax: "5" }, "pmax"],
  ["pmin above pmax", { pmin: "6", pmax: "5" }, "pmax"],
  ["pmin negative", { pmin: "-1", pmax: "5" }, "pmin"],
  ["pmax decimal", { pmin: "1", pmax: "5.5" }, "pmax"],
  ["limit 101", { limit: "101" }, "limit"],
  ["limit negative", { limit: "-1" }, "limit"],
  ["page 0", { page: "0" }, "page"],
  ["sort unknown", { sort: "price" }, "sort"],
  ["order unknown", { sort: "trip_date", order: "up" }, "order"],
  ["radius 0", { radius: "0" }, "radius"],
  ["radius 501", { radius: "501" }, "radius"],
  ["radius_from 0", { radius_from: "0" }, "radius_from"],
  ["radius_to 501", { radius_to: "501" }, "radius_to"],
  ["fields unknown", { fields: "trips,nope" }, "fields"],
  ["fields unknown trip field", { fields: "trips.nope" }, "fields"],
  ["repeated parameter", { seats: ["1", "2"] }, "seats"],
  ["repeated locale", { locale: ["fr_FR", "fr_FR"] }, "locale"]
]

const VALID: ReadonlyArray<[string, Record<string, string>]> = [
  ["alternative currency", { locale: "en_GB", cur: "EUR" }],
  ["uk_UA with RUB", { locale: "uk_UA", cur: "RUB" }],
  // Croatia's currency since 2023 (SEMANTICS §6); the spec's table predates it.
  ["hr_HR with EUR", { locale: "hr_HR", cur: "EUR" }],
  ["hr_HR with HRK", { locale: "hr_HR", cur: "HRK" }],
  ["sr_Latn_RS", { locale: "sr_Latn_RS", cur: "RSD" }],
  ["fc bounds", { fc: "-90|-180", tc: "90|180" }],
  ["db date", { db: "2026-11-22" }],
  ["db date-time and de date", { db: "2026-11-22 10:00:00", de: "2026-11-22" }],
  ["db equals de", { db: "2026-11-22", de: "2026-11-22" }],
  ["hb 0 and he 24", { hb: "0", he: "24" }],
  ["hb 23 alone", { hb: "23" }],
  ["he 1 alone", { he: "1" }],
  ["seats 1 and 8", { seats: "8" }],
  ["limit 0", { limit: "0" }],
  ["limit 100", { limit: "100" }],
  ["pmin 0 pmax 1", { pmin: "0", pmax: "1" }],
  ["radius 1 and 500", { radius_from: "1", radius_to: "500" }],
  ["flags 0", { photo: "0", aa: "0", shortlines: "0" }],
  ["flags 1", { photo: "1", aa: "1", shortlines: "1" }],
  ["order without sort", { order: "desc" }],
  ["fields", { fields: "trips.price,pager,top_trips.permanent_id" }],
  ["unknown parameter ignored", { utm_source: "x" }],
  ["empty optional parameter ignored", { fn: "", seats: "" }]
]

describe("search parameters (docs/API.md)", () => {
  it.each(INVALID)("400 for %s", (_, extra, parameter, withBase = true) => {
    const error = rejected(extra, withBase)
    expect(error._tag).toBe("InvalidParameter")
    expect(error.parameter).toBe(parameter)
    expect(error.message.startsWith(`${parameter}: `)).toBe(true)
  })

  it("marks an absent required parameter as missing", () => {
    expect(rejected({ cur: "EUR" }, false).missing).toBe(true)
    expect(rejected({ cur: "GBP" }).missing).toBe(false)
  })

  it.each(VALID)("accepts %s", (_, extra) => {
    expect(Either.isRight(decode({ ...base, ...extra }, true))).toBe(true)
  })

  it("applies the defaults", () => {
    const q = Either.getOrThrow(decode({}))
    expect(q).toMatchObject({ page: 1, limit: 10, order: "asc", photo: false, aa: false, shortlines: false })
    expect(q.sort).toBeUndefined()
  })

  it("reads db/de as local dates and times", () => {
    const q = Either.getOrThrow(decode({ db: "2026-11-22 07:30:00", de: "2026-11-24" }))
    expect(q.db).toEqual({ date: "2026-11-22", localMs: Date.UTC(2026, 10, 22, 7, 30), hasTime: true })
    expect(q.de).toEqual({ date: "2026-11-24", localMs: Date.UTC(2026, 10, 24), hasTime: false })
  })
})
