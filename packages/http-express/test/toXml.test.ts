import { XMLParser } from "fast-xml-parser"
import { describe, expect, it } from "vitest"
import { toXml, XML_SINGULARS, xmlName } from "../src/index.js"

const parse = (xml: string) =>
  new XMLParser({ parseTagValue: false, trimValues: false, isArray: (_name, jpath) => String(jpath).split(".").length > 2 && /\.(trip|facet|item|stop_over|step|route|tag|location|passenger|picture|thread)$/.test(String(jpath)) }).parse(xml)

describe("toXml", () => {
  it("has a root response, elements in JSON order, booleans and numbers as text", () => {
    const xml = toXml({ b: 1, a: true, c: false, d: "x", e: { z: 2.5, y: 0 } })
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<response><b>1</b><a>true</a><c>false</c><d>x</d><e><z>2.5</z><y>0</y></e></response>')
  })

  it("names array items by the singular table of the XML form", () => {
    for (const [plural, singular] of Object.entries(XML_SINGULARS)) {
      const xml = toXml({ [plural]: ["a", "b"] })
      expect(xml).toContain(`<${plural}><${singular}>a</${singular}><${singular}>b</${singular}></${plural}>`)
    }
    expect(XML_SINGULARS).toMatchObject({ trips: "trip", top_trips: "trip", trip_plan: "step", vehicle_pictures: "picture", locations_to_display: "location" })
  })

  it("uses a generic item for other arrays, including nested ones", () => {
    expect(toXml({ other: [1, [2, 3]] })).toContain("<other><item>1</item><item><item>2</item><item>3</item></item></other>")
  })

  it("writes an empty array as an empty element, and a one-item array with one child", () => {
    const xml = toXml({ trips: [], top_trips: [{ permanent_id: "a" }] })
    expect(xml).toContain("<trips></trips><top_trips><trip><permanent_id>a</permanent_id></trip></top_trips>")
  })

  it("escapes text and survives characters XML cannot carry", () => {
    const comment = `Tom & Jerry <b>"hi"</b> 'ok' \u0001 é 🚗`
    const xml = toXml({ comment })
    expect(xml).not.toContain("<b>")
    const back = parse(xml).response.comment as string
    expect(back).toBe(`Tom & Jerry <b>"hi"</b> 'ok' \uFFFD é 🚗`)
  })

  it("keeps element names valid", () => {
    expect(xmlName("developper-message")).toBe("developper-message")
    expect(xmlName("_self")).toBe("_self")
    expect(xmlName("1st")).toBe("_1st")
    expect(xmlName("a b<c")).toBe("a_b_c")
    expect(toXml({ "@_attr": "v", "#text": "t" })).toContain("<__attr>v</__attr><_text>t</_text>")
  })

  it("round-trips a search-shaped document through XMLParser", () => {
    const doc = {
      links: { _self: "https://api.test/api/v2/trips?a=1&b=2", _front: "https://www.test/search?a=1&b=2" },
      pager: { page: 1, pages: 1, total: 2, limit: 10 },
      trips: [
        { permanent_id: "t1", stop_overs: [{ city_name: "Paris", departure_place: true }], trip_plan: [{ city: "Paris" }], routes: [{ distance_in_meters: 12 }] },
        { permanent_id: "t2", passengers: [{ id: "p" }], vehicle_pictures: ["https://x/1.jpg"], tags: ["a"] }
      ],
      facets: [{ name: "seats", type: "radio", items: [{ value: 1, count: 2, is_selected: true }] }],
      has_bus: false
    }
    const back = parse(toXml(doc)).response
    expect(back.links._self).toBe("https://api.test/api/v2/trips?a=1&b=2")
    expect(back.trips.trip.map((t: { permanent_id: string }) => t.permanent_id)).toEqual(["t1", "t2"])
    expect(back.trips.trip[0].stop_overs.stop_over[0]).toEqual({ city_name: "Paris", departure_place: "true" })
    expect(back.trips.trip[0].trip_plan.step[0].city).toBe("Paris")
    expect(back.trips.trip[0].routes.route[0].distance_in_meters).toBe("12")
    expect(back.trips.trip[1].passengers.passenger[0].id).toBe("p")
    expect(back.trips.trip[1].vehicle_pictures.picture).toEqual(["https://x/1.jpg"])
    expect(back.trips.trip[1].tags.tag).toEqual(["a"])
    expect(back.facets.facet[0].items.item[0]).toEqual({ value: "1", count: "2", is_selected: "true" })
    expect(back.has_bus).toBe("false")
  })
})
