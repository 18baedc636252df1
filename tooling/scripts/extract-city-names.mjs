// Writes packages/gazetteer/data/city-names.tsv.gz: GeoNames' translations of city names, as
// Debian's libgeonames-common packages them (one gettext catalogue per language, keyed by GeoNames
// id), for the languages the 23 locales read and the cities of the gazetteer. Run after
//   cd /tmp && apt-get download libgeonames-common && dpkg -x libgeonames-common_*.deb /tmp/geonames
// as `node tooling/scripts/extract-city-names.mjs [localeDir]` (default
// /tmp/geonames/usr/share/locale, else /usr/share/locale). The gazetteer must be built first.
//
// The file: a first line `id` + the languages, tab-separated; then one line per city that has at
// least one entry, its GeoNames id as the difference from the previous line's (ids ascending) and
// one field per language, empty where the catalogue has none, `=` where the entry is the city's
// GeoNames name. Entries are kept as the catalogues write them (the script rule is the reader's),
// less those holding a tab or a line break.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { gzipSync } from "node:zlib"
import { mo } from "gettext-parser"
import { CITY_NAME_LANGUAGES, loadCities } from "../../packages/gazetteer/dist/index.js"

const args = process.argv.slice(2)
if (args.includes("--help")) {
  console.log("usage: node tooling/scripts/extract-city-names.mjs [localeDir]")
  process.exit(0)
}
const localeDir =
  args[0] ?? ["/tmp/geonames/usr/share/locale", "/usr/share/locale"].find((d) => existsSync(`${d}/de/LC_MESSAGES/geonames.mo`))
if (localeDir === undefined) {
  console.error("no geonames catalogues: apt-get download libgeonames-common && dpkg -x libgeonames-common_*.deb /tmp/geonames")
  process.exit(1)
}

const nameOf = new Map(loadCities().map((c) => [c.id, c.name]))
/** @type {Map<number, Array<string>>} */
const rows = new Map()
for (const [k, language] of CITY_NAME_LANGUAGES.entries()) {
  const path = `${localeDir}/${language}/LC_MESSAGES/geonames.mo`
  const catalogue = mo.parse(readFileSync(path))
  let kept = 0
  for (const context of Object.values(catalogue.translations)) {
    for (const [msgid, entry] of Object.entries(context)) {
      const id = Number(msgid)
      const text = entry.msgstr[0] ?? ""
      if (msgid === "" || !Number.isInteger(id) || !nameOf.has(id) || text === "" || text === "=" || /[\t\r\n]/.test(text)) continue
      let row = rows.get(id)
      if (row === undefined) rows.set(id, (row = CITY_NAME_LANGUAGES.map(() => "")))
      row[k] = text === nameOf.get(id) ? "=" : text
      kept++
    }
  }
  console.log(`${language}: ${kept} entries`)
}

const lines = [["id", ...CITY_NAME_LANGUAGES].join("\t")]
let previous = 0
for (const id of [...rows.keys()].sort((a, b) => a - b)) {
  lines.push([id - previous, ...rows.get(id)].join("\t"))
  previous = id
}
const target = new URL("../../packages/gazetteer/data/city-names.tsv.gz", import.meta.url)
mkdirSync(dirname(target.pathname), { recursive: true })
const bytes = gzipSync(lines.join("\n") + "\n", { level: 9 })
writeFileSync(target, bytes)
console.log(`wrote ${target.pathname}: ${rows.size} cities, ${bytes.length} bytes`)
