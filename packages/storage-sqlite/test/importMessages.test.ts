import { decodeFeedLine, FeedTrip } from "@tripsearch/core"
import { Either, type SchemaAST as AST } from "effect"
import { describe, expect, it } from "vitest"
import { decodeFeedLineFast, importFeed, openDatabase } from "../src/index.js"
import { toLine, tripInput } from "@tripsearch/store-tests"

type Kind = "type" | "missing" | "range" | "enum" | "rule"
const MISSING = Symbol("missing")

/** A field of the feed as its Schema declares it. */
interface FieldInfo {
  readonly path: string
  readonly required: boolean
  readonly kind: "enum" | "refined" | "plain" | "object" | "array"
}

/** Every field of the feed, read from `FeedTrip` itself: a field added later without cases fails the coverage test. */
const fieldsOf = (start: AST.AST, path = "", required = true, out: Array<FieldInfo> = []): Array<FieldInfo> => {
  let ast = start
  let refined = false
  while (ast._tag === "Refinement" || ast._tag === "Transformation") {
    if (ast._tag === "Refinement") refined = true
    ast = ast.from
  }
  if (ast._tag === "Union") {
    const members = ast.types.filter((t) => t._tag !== "UndefinedKeyword")
    const isRequired = required && members.length === ast.types.length
    if (members.every((m) => m._tag === "Literal")) out.push({ path, required: isRequired, kind: "enum" })
    else if (members.length === 1) fieldsOf(members[0]!, path, isRequired, out)
    else out.push({ path, required: isRequired, kind: "plain" })
  } else if (ast._tag === "TypeLiteral") {
    if (path !== "") out.push({ path, required, kind: "object" })
    for (const p of ast.propertySignatures) fieldsOf(p.type, path === "" ? String(p.name) : `${path}.${String(p.name)}`, !p.isOptional, out)
  } else if (ast._tag === "TupleType") {
    out.push({ path, required, kind: "array" })
    fieldsOf(ast.rest[0]!.type, `${path}[0]`, false, out) // an item cannot be missing
  } else out.push({ path, required, kind: refined ? "refined" : "plain" })
  return out
}

// A trip with every optional part present, so that each field can be broken.
const full: Record<string, unknown> = {
  ...tripInput("m1"),
  seats_count_origin: 3,
  comment: "Non-smoking",
  car: { ...(tripInput("m1").car as object), color_hexa: "D8C8A8", number_of_seat: 5, picture: "https://x.test/car.jpg" },
  passengers: [{ id: "p1", display_name: "Ana", picture: "https://x.test/p.jpg" }],
  vehicle_pictures: ["https://x.test/v.jpg"],
  questions: [{ id: "q1", question: "Dog?", answer: "Yes", asked_at: "2026-01-01T10:00:00Z", answered_at: "2026-01-01T11:00:00+01:00" }]
}

const WAYPOINTS = full["waypoints"] as ReadonlyArray<unknown>
const LEGS = full["legs"] as ReadonlyArray<unknown>

/** Each field broken each way it can be: [path, value (or MISSING), kind]. */
const CASES: ReadonlyArray<[string, unknown, Kind]> = [
  ["id", 5, "type"], ["id", MISSING, "missing"], ["id", "bad id!", "range"],
  ["status", 5, "type"], ["status", "paused", "enum"],
  ["departure_time", 5, "type"], ["departure_time", MISSING, "missing"], ["departure_time", "2026-07-15 08:30", "range"], ["departure_time", "2027-02-29T08:30:00+01:00", "range"], ["departure_time", "2100-02-29T08:30:00Z", "range"], ["departure_time", "2027-04-31T08:30:00Z", "range"],
  ["waypoints", 5, "type"], ["waypoints", MISSING, "missing"], ["waypoints", [WAYPOINTS[0]], "range"],
  ["legs", "x", "type"], ["legs", MISSING, "missing"], ["legs", [LEGS[0]], "rule"],
  ["currency", 5, "type"], ["currency", MISSING, "missing"], ["currency", "USD", "enum"],
  ["seats", "3", "type"], ["seats", MISSING, "missing"], ["seats", 9, "range"],
  ["seats_left", "2", "type"], ["seats_left", MISSING, "missing"], ["seats_left", -1, "range"], ["seats_left", 4, "rule"],
  ["seats_count_origin", "3", "type"], ["seats_count_origin", 0, "range"],
  ["booking_mode", 1, "type"], ["booking_mode", MISSING, "missing"], ["booking_mode", "instant", "enum"],
  ["booking_type", 1, "type"], ["booking_type", MISSING, "missing"], ["booking_type", "phone", "enum"],
  ["service", 1, "type"], ["service", "long", "enum"],
  ["viaggio_rosa", "yes", "type"],
  ["is_comfort", 1, "type"],
  ["luggage", 1, "type"], ["luggage", "HUGE", "enum"],
  ["detour", 1, "type"], ["detour", "SOMETIMES", "enum"],
  ["schedule", 1, "type"], ["schedule", "LATER", "enum"],
  ["comment", 5, "type"], ["comment", "x\uD800y", "rule"], ["comment", "x".repeat(2001), "range"],
  ["messaging_status", 1, "type"], ["messaging_status", "secret", "enum"],
  ["answer_delay", "0", "type"], ["answer_delay", 1.5, "range"],
  ["view_count", "0", "type"], ["view_count", -3, "range"],
  ["car", 5, "type"], ["car", MISSING, "missing"],
  ["driver", "d", "type"], ["driver", MISSING, "missing"],
  ["passengers", 5, "type"],
  ["vehicle_pictures", "u", "type"],
  ["questions", {}, "type"],
  ["waypoints[0]", 5, "type"],
  ["waypoints[0].city", 5, "type"], ["waypoints[0].city", MISSING, "missing"], ["waypoints[0].city", "", "range"],
  ["waypoints[0].address", 5, "type"],
  ["waypoints[0].lat", "48", "type"], ["waypoints[0].lat", MISSING, "missing"], ["waypoints[0].lat", 91, "range"],
  ["waypoints[0].lon", "2", "type"], ["waypoints[0].lon", MISSING, "missing"], ["waypoints[0].lon", -181, "range"],
  ["waypoints[0].country", 33, "type"], ["waypoints[0].country", MISSING, "missing"], ["waypoints[0].country", "fr", "range"], ["waypoints[0].country", "XX", "range"], ["waypoints[0].country", "UK", "range"],
  ["waypoints[0].meeting_point_id", "12", "type"], ["waypoints[0].meeting_point_id", -1, "range"],
  ["waypoints[0].offset_min", "0", "type"], ["waypoints[0].offset_min", MISSING, "missing"], ["waypoints[0].offset_min", -5, "range"],
  ["waypoints[0].offset_min", 5, "rule"], ["waypoints[2].offset_min", 270, "rule"], ["waypoints[2].offset_min", 1e12, "rule"],
  ["legs[0]", 5, "type"],
  ["legs[0].price", "24", "type"], ["legs[0].price", MISSING, "missing"], ["legs[0].price", 0, "range"], ["legs[0].price", 24.555, "rule"], ["legs[0].price", 24.50000001, "rule"], ["legs[0].price", 0.010000001, "rule"],
  ["legs[0].distance_km", "1", "type"], ["legs[0].distance_km", MISSING, "missing"], ["legs[0].distance_km", -1, "range"],
  ["legs[0].duration_s", "1", "type"], ["legs[0].duration_s", MISSING, "missing"], ["legs[0].duration_s", 1.5, "range"],
  ["legs[0].path", 5, "type"], ["legs[0].path", "_p~iF~ps|U", "rule"], ["legs[0].path", "??", "rule"],
  ["car.id", 5, "type"], ["car.id", MISSING, "missing"],
  ["car.make", 5, "type"], ["car.make", MISSING, "missing"],
  ["car.model", 5, "type"], ["car.model", MISSING, "missing"],
  ["car.color", 5, "type"],
  ["car.color_hexa", 5, "type"], ["car.color_hexa", "#d8c8a", "range"], ["car.color_hexa", "##d8c8a8", "range"], ["car.color_hexa", "red", "range"],
  ["car.comfort", 1, "type"], ["car.comfort", MISSING, "missing"], ["car.comfort", "Superb", "enum"],
  ["car.comfort_nb_star", "3", "type"], ["car.comfort_nb_star", MISSING, "missing"], ["car.comfort_nb_star", 5, "range"],
  ["car.comfort_nb_star", 2, "rule"],
  ["car.number_of_seat", "4", "type"], ["car.number_of_seat", 10, "range"],
  ["car.category", 5, "type"], ["car.category", MISSING, "missing"], ["car.category", "", "range"],
  ["car.picture", 5, "type"], ["car.picture", "ftp://x.test/car.jpg", "range"],
  ["driver.id", 5, "type"], ["driver.id", MISSING, "missing"],
  ["driver.display_name", 5, "type"], ["driver.display_name", MISSING, "missing"],
  ["driver.picture", 5, "type"], ["driver.picture", MISSING, "missing"], ["driver.picture", "not a url", "range"],
  ["driver.experience", "3", "type"], ["driver.experience", MISSING, "missing"], ["driver.experience", 5, "range"],
  ["passengers[0]", 5, "type"],
  ["passengers[0].id", 5, "type"], ["passengers[0].id", MISSING, "missing"],
  ["passengers[0].display_name", 5, "type"], ["passengers[0].display_name", MISSING, "missing"],
  ["passengers[0].picture", 5, "type"], ["passengers[0].picture", "x", "range"],
  ["vehicle_pictures[0]", 5, "type"], ["vehicle_pictures[0]", "x", "range"],
  ["questions[0]", "q", "type"],
  ["questions[0].id", 5, "type"], ["questions[0].id", MISSING, "missing"],
  ["questions[0].question", 5, "type"], ["questions[0].question", MISSING, "missing"],
  ["questions[0].answer", 5, "type"],
  ["questions[0].asked_at", 5, "type"], ["questions[0].asked_at", MISSING, "missing"], ["questions[0].asked_at", "yesterday", "range"], ["questions[0].asked_at", "2027-02-30T10:00:00+01:00", "range"],
  ["questions[0].answered_at", 5, "type"], ["questions[0].answered_at", "tomorrow", "range"]
]

/** `full` with the field at `path` (`a.b[0].c`) replaced by `value`, or removed. */
const broken = (path: string, value: unknown): string => {
  const copy = JSON.parse(JSON.stringify(full)) as Record<string, unknown>
  const keys = path.split(/[.[\]]+/).filter((k) => k !== "")
  let parent = copy as Record<string, unknown>
  for (const k of keys.slice(0, -1)) parent = parent[k] as Record<string, unknown>
  const last = keys[keys.length - 1]!
  if (value === MISSING) delete parent[last]
  else parent[last] = value
  return toLine(copy)
}

describe("import messages: one sentence per bad field, naming it", () => {
  it("the full trip is valid, so each case breaks one field only", () => {
    expect(decodeFeedLine(toLine(full))._tag).toBe("Right")
  })

  it.each([["5", "5"], ["[]", "an array"], ["null", "null"], ['"trip"', '"trip"']])("a line that is not an object: %s", (line, got) => {
    for (const decoded of [decodeFeedLineFast(line), decodeFeedLine(line)]) {
      expect(Either.isLeft(decoded) && decoded.left).toEqual([{ field: "(line)", reason: `must be a JSON object (one trip), got ${got}` }])
    }
  })

  it("every field of the feed has a case of each kind its Schema can fail", () => {
    const fields = fieldsOf(FeedTrip.ast)
    expect(fields.length).toBeGreaterThan(50)
    const kindsOf = (path: string) => new Set(CASES.filter(([p]) => p === path).map(([, , kind]) => kind))
    for (const field of fields) {
      const kinds = kindsOf(field.path)
      expect(kinds.has("type"), `${field.path}: wrong type`).toBe(true)
      if (field.required) expect(kinds.has("missing"), `${field.path}: missing`).toBe(true)
      if (field.kind === "enum") expect(kinds.has("enum"), `${field.path}: bad value`).toBe(true)
      if (field.kind === "refined") expect(kinds.has("range"), `${field.path}: out of range`).toBe(true)
    }
  })

  it.each(CASES.map(([path, value, kind]) => [`${path} (${kind})`, path, value] as const))("%s", async (_, path, value) => {
    const line = broken(path, value)
    const fast = decodeFeedLineFast(line)
    expect(fast).toStrictEqual(decodeFeedLine(line))
    const db = openDatabase(":memory:")
    try {
      const result = await importFeed(db, [line])
      expect(result.ok).toBe(false)
      const errors = result.ok ? [] : result.errors
      expect(errors).toHaveLength(1)
      const prefix = `line 1: ${path}: `
      expect(errors[0]!.startsWith(prefix), errors[0]).toBe(true)
      const reason = errors[0]!.slice(prefix.length)
      // One sentence stating the rule: no Effect wording, no second clause or sentence.
      expect(reason).toMatch(/^(must|is) /)
      expect(reason).not.toMatch(/Expected|actual|[;\n]|\. /)
      if (value === MISSING) expect(reason).toBe("is required")
      else expect(reason).toMatch(/, got .+$/)
    } finally {
      db.close()
    }
  })
})
