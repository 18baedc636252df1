import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import polyline from "@mapbox/polyline"
import { checkedPath, decodePath, pathProblem } from "@tripsearch/core"

// decodePath finds a broken polyline in one pass over its characters; before, it encoded the
// decoded points again and compared. Both must give the same verdict, points and message on
// every text, broken or not.
const byEncodingAgain = (path: string): Array<[number, number]> | string => {
  for (let c = 0; c < path.length; c++) {
    const code = path.charCodeAt(c)
    if (code < 63 || code > 126) return `must be an encoded polyline, got the character ${JSON.stringify(path[c])} at ${c}`
  }
  const points = polyline.decode(path, 5)
  if (polyline.encode(points, 5) !== path) return "must be an encoded polyline (precision 1e-5); this one is truncated or broken"
  for (const [lat, lon] of points) {
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) return `must be an encoded polyline of valid coordinates, got a point at ${lat},${lon}`
  }
  return points
}

const point = fc.tuple(fc.integer({ min: -9_000_000, max: 9_000_000 }), fc.integer({ min: -18_000_000, max: 18_000_000 })).map(([a, b]) => [a / 1e5, b / 1e5] as [number, number])
/** Texts near valid polylines: valid ones, cut, with a character changed, inserted or removed. */
const nearPolyline = fc
  .tuple(fc.array(point, { maxLength: 8 }), fc.nat(), fc.integer({ min: 63, max: 126 }), fc.constantFrom("keep", "cut", "change", "insert", "remove"))
  .map(([points, at, code, how]) => {
    const text = polyline.encode(points, 5)
    const k = text.length === 0 ? 0 : at % text.length
    const c = String.fromCharCode(code)
    if (how === "cut") return text.slice(0, k)
    if (how === "change") return text.slice(0, k) + c + text.slice(k + 1)
    if (how === "insert") return text.slice(0, k) + c + text.slice(k)
    if (how === "remove") return text.slice(0, k) + text.slice(k + 1)
    return text
  })
/** Any text of polyline characters, and some others. */
const anyText = fc.string({ unit: fc.integer({ min: 60, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 40 })

describe("decodePath", () => {
  it("gives what encoding the points again gives, on texts near valid polylines and on any text", () => {
    fc.assert(fc.property(fc.oneof(nearPolyline, anyText), (text) => {
      expect(decodePath(text)).toStrictEqual(byEncodingAgain(text))
    }), { numRuns: 20_000 })
  })

  it("the cases one by one: empty, whole, cut, an odd number of values, a value in too many characters, long values", () => {
    const cases = ["", "?", "??", "_?", "??_?", "_??", "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "_p~iF~ps|U_ulLnnqC_mqNvxq`", "_p~iF~ps|U_ulLnnqC_mqN",
      "~~~~~~?", "~~~~~~??", "~~~~~~~?", "~~~~~~~??", "~~~~~~@?", "~~~~~@??", "??~~~~~~~~~~~~~~~~~~~~~~_"]
    for (const text of cases) expect(decodePath(text)).toStrictEqual(byEncodingAgain(text))
  })
})

describe("checkedPath", () => {
  it("gives the points when pathProblem has none, and pathProblem's reason otherwise", () => {
    const text = polyline.encode([[48.85, 2.35], [48.9, 2.4], [49, 2.5]], 5)
    expect(checkedPath(text, 48.85, 2.35, 49, 2.5)).toStrictEqual(polyline.decode(text, 5))
    expect(pathProblem(text, 48.85, 2.35, 49, 2.5)).toBeUndefined()
    expect(checkedPath(text, 48.85, 2.35, 49.1, 2.5)).toBe(pathProblem(text, 48.85, 2.35, 49.1, 2.5))
    expect(checkedPath(text.slice(0, -1), 48.85, 2.35, 49, 2.5)).toBe("must be an encoded polyline (precision 1e-5); this one is truncated or broken")
  })
})

describe("a path's ends too far from its waypoints", () => {
  it("says how far, in as many decimals as it takes to read as past 0.1 km", () => {
    const text = polyline.encode([[48.85, 2.35], [49, 2.5]], 5)
    // Each waypoint moved north of its end by just over 0.1 km (1 degree of latitude: 111.195 km).
    const problem = (dLat: number, atEnd: boolean) =>
      atEnd ? pathProblem(text, 48.85, 2.35, 49 + dLat, 2.5) : pathProblem(text, 48.85 + dLat, 2.35, 49, 2.5)
    expect(problem(0.10008 / 111.195, false)).toMatch(/^must start within 0\.1 km of its first waypoint, starts 0\.1001 km away$/)
    expect(problem(0.10008 / 111.195, true)).toMatch(/^must end within 0\.1 km of its second waypoint, ends 0\.1001 km away$/)
    expect(problem(4.826 / 111.195, false)).toBe("must start within 0.1 km of its first waypoint, starts 4.826 km away")
    // Past 0.1 km by any amount: the figure shown is over 0.1.
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 0.01, noNaN: true }), (over) => {
        const reason = problem((0.1 + over) / 111.195, false)
        if (reason === undefined) return true // 0.1 km after rounding to the polyline's 1e-5 degrees
        return Number(/starts ([0-9.e-]+) km away/.exec(reason)![1]) > 0.1
      }),
      { numRuns: 2_000 }
    )
  })
})
