// Part of the gazetteer's build (after tsc): writes dist/names-image.json, the search workers'
// gazetteer (see src/namesImage.ts).
import { Gazetteer, loadCities, loadCityNames, writeNamesImage } from "../dist/index.js"

const cities = loadCities()
const names = loadCityNames(cities)
writeNamesImage(Gazetteer.forNames(cities, names), names)
