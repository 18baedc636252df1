// `npm run bench:places`: the time of one `Gazetteer.suggest` (the answer of GET /api/v2/places
// but HTTP), in one thread over the whole gazetteer, for every prefix (1 to 8 letters) of names
// in five kinds of writing, each asked in 4 locales. Prints p50, p99 and max per kind and overall.
import { Gazetteer } from "../dist/index.js"

const args = process.argv.slice(2)
if (args.includes("--help")) {
  console.log("usage: npm run bench:places [-- --rounds N]   (default 20 rounds over every prefix)")
  process.exit(0)
}
const roundsAt = args.indexOf("--rounds")
const rounds = roundsAt === -1 ? 20 : Number(args[roundsAt + 1])
const unknown = args.filter((_, k) => roundsAt === -1 || !(k === roundsAt || k === roundsAt + 1))
if (unknown.length > 0 || !(Number.isInteger(rounds) && rounds > 0)) {
  console.error(unknown.length > 0 ? `bench:places: unknown argument ${unknown[0]}` : "bench:places: --rounds takes a positive integer")
  process.exit(2)
}

const KINDS = {
  "Latin": ["Paris", "London", "Berlin", "Madrid", "Milano", "Amsterdam", "Barcelona", "Lyon", "Sao Paulo", "Manchester"],
  "Latin with marks": ["München", "Kraków", "Łódź", "Brașov", "Győr", "Plzeň", "Žilina", "Besançon", "Düsseldorf", "București"],
  "Cyrillic": ["Москва", "Санкт-Петербург", "Київ", "Одеса", "Новосибирск", "Харків", "Београд", "Мюнхен", "Вена", "Рим"],
  "Turkish": ["İstanbul", "İzmir", "Şanlıurfa", "Çanakkale", "Eskişehir", "Gaziantep", "Diyarbakır", "Ağrı", "Iğdır", "Ünye"],
  "Serbian Latin": ["Beč", "Minhen", "Niš", "Novi Sad", "Čačak", "Kragujevac", "Subotica", "Zrenjanin", "Šabac", "Bukurešt"]
}
const LOCALES = ["fr_FR", "ru_RU", "tr_TR", "sr_Latn_RS"]

const t0 = performance.now()
const gazetteer = Gazetteer.shared()
gazetteer.prepareSuggestions()
console.log(`gazetteer and suggestion index loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

const queries = Object.fromEntries(
  Object.entries(KINDS).map(([kind, names]) => [kind, names.flatMap((n) => [...Array(Math.min(8, [...n].length)).keys()].map((k) => [...n].slice(0, k + 1).join("")))])
)
// Warm-up: the first calls compile.
for (const qs of Object.values(queries)) for (const q of qs) for (const l of LOCALES) gazetteer.suggest(q, l)

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const all = []
const rows = []
for (const [kind, qs] of Object.entries(queries)) {
  const times = []
  for (let r = 0; r < rounds; r++)
    for (const q of qs)
      for (const l of LOCALES) {
        const t = performance.now()
        gazetteer.suggest(q, l)
        times.push(performance.now() - t)
      }
  times.sort((a, b) => a - b)
  all.push(...times)
  rows.push([kind, qs.length, times.length, pct(times, 50), pct(times, 99), times.at(-1)])
}
all.sort((a, b) => a - b)
rows.push(["all", rows.reduce((s, r) => s + r[1], 0), all.length, pct(all, 50), pct(all, 99), all.at(-1)])
console.log("| prefixes of | prefixes | calls | p50 ms | p99 ms | max ms |")
console.log("| --- | ---: | ---: | ---: | ---: | ---: |")
for (const [kind, n, calls, p50, p99, max] of rows) console.log(`| ${kind} | ${n} | ${calls} | ${p50.toFixed(3)} | ${p99.toFixed(3)} | ${max.toFixed(3)} |`)
