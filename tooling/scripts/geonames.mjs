// Makes sure GeoNames' translated city names, which a gazetteer test checks the committed
// `data/city-names.tsv.gz` against, are on the machine (`npm test` runs this before vitest).
// Prints nothing when they are there. On Debian as root (CI, sessions) it installs Debian's
// `libgeonames-common` (its gettext catalogues, one per language); anywhere else it says what to
// install and fails, so that the test never goes missing unnoticed. TRIPSEARCH_GEONAMES names
// another folder of catalogues (the `share/locale` of an extracted package).
import { existsSync } from "node:fs"
import { ensurePackage } from "./aptInstall.mjs"

const folders = [process.env.TRIPSEARCH_GEONAMES, "/tmp/geonames/usr/share/locale", "/usr/share/locale"].filter((d) => d !== undefined && d !== "")

ensurePackage({
  label: "geonames",
  pkg: "libgeonames-common",
  purpose: "the gazetteer's tests",
  present: () => folders.some((d) => existsSync(`${d}/de/LC_MESSAGES/geonames.mo`)),
  missing: [
    `the gazetteer's tests need GeoNames' city-name catalogues, not found in ${folders.join(", ")}.`,
    "On Debian or Ubuntu: apt-get install -y libgeonames-common (as root). Elsewhere: extract that",
    "package and set TRIPSEARCH_GEONAMES to its share/locale folder."
  ],
  notThere: "libgeonames-common is installed, but /usr/share/locale/de/LC_MESSAGES/geonames.mo is not there"
})
