import { COUNTRY_PROFILES } from "./countryProfiles.js"
import type { Language } from "./languagePacks.js"

/**
 * How meeting points are named in one language; `{t}` is the town, `{n}` an exit number, `{d}` a
 * side, `{de}` French "de " elided before a vowel ("Gare d'Orléans").
 */
export interface MeetingPointNames {
  readonly station: string
  /** For cities of 100,000 or more, where the language names a main station apart. */
  readonly mainStation: string
  readonly centre: string
  readonly exit: string
  readonly serviceArea: string
  readonly parkAndRide: string
  /** North, south, east, west. */
  readonly sides: readonly [string, string, string, string]
  /** Addresses of a town centre and of a station. */
  readonly centreAddress: string
  readonly stationAddress: string
}

const N = (
  station: string,
  mainStation: string,
  centre: string,
  exit: string,
  serviceArea: string,
  parkAndRide: string,
  sides: readonly [string, string, string, string],
  centreAddress: string,
  stationAddress: string
): MeetingPointNames => ({ station, mainStation, centre, exit, serviceArea, parkAndRide, sides, centreAddress, stationAddress })

/** The meeting point names of the generator's languages, as each country's signs write them. */
export const MEETING_POINT_NAMES: Readonly<Record<Language, MeetingPointNames>> = {
  fr: N("Gare {de}{t}-Ville", "Gare {de}{t}", "{t} Centre-ville", "Sortie {n} {t}-{d}", "Aire {de}{t}-{d}", "Parking relais {t}-{d}", ["Nord", "Sud", "Est", "Ouest"], "Place de l'Hôtel de Ville, {t}", "Place de la Gare, {t}"),
  de: N("Bahnhof {t}", "{t} Hbf", "{t} Zentrum", "Ausfahrt {t}-{d}", "Raststätte {t}", "P+R {t}-{d}", ["Nord", "Süd", "Ost", "West"], "Marktplatz 1, {t}", "Bahnhofstraße 1, {t}"),
  es: N("Estación de {t}", "Estación de {t}", "{t} Centro", "Salida {n} {t} {d}", "Área de servicio de {t}", "Aparcamiento disuasorio {t} {d}", ["Norte", "Sur", "Este", "Oeste"], "Plaza Mayor, {t}", "Avenida de la Estación, {t}"),
  it: N("Stazione di {t}", "{t} Centrale", "{t} Centro", "Uscita {t} {d}", "Area di servizio {t} {d}", "Parcheggio scambiatore {t} {d}", ["Nord", "Sud", "Est", "Ovest"], "Piazza del Municipio, {t}", "Piazza della Stazione, {t}"),
  en: N("{t} Station", "{t} Central Station", "{t} Town Centre", "Junction {n} {t} {d}", "{t} Services", "{t} {d} Park and Ride", ["North", "South", "East", "West"], "High Street, {t}", "Station Road, {t}"),
  hi: N("{t} रेलवे स्टेशन", "{t} जंक्शन", "{t} सिटी सेंटर", "निकास {n} {t} {d}", "{t} सर्विस एरिया", "{t} {d} पार्किंग", ["उत्तर", "दक्षिण", "पूर्व", "पश्चिम"], "मुख्य बाज़ार, {t}", "स्टेशन रोड, {t}"),
  pt: N("Estação de {t}", "Estação Central de {t}", "{t} Centro", "Saída {n} {t} {d}", "Área de serviço de {t}", "Estacionamento {t} {d}", ["Norte", "Sul", "Este", "Oeste"], "Praça da República, {t}", "Largo da Estação, {t}"),
  nl: N("Station {t}", "Station {t} Centraal", "{t} Centrum", "Afrit {n} {t}-{d}", "Verzorgingsplaats {t}", "P+R {t} {d}", ["Noord", "Zuid", "Oost", "West"], "Markt 1, {t}", "Stationsplein 1, {t}"),
  pl: N("{t} dworzec kolejowy", "{t} Główny", "{t} Centrum", "Węzeł {t} {d}", "MOP {t}", "Parking P+R {t} {d}", ["Północ", "Południe", "Wschód", "Zachód"], "Rynek 1, {t}", "Plac Dworcowy 1, {t}"),
  cs: N("Nádraží {t}", "{t} hlavní nádraží", "{t} centrum", "Exit {n} {t}-{d}", "Odpočívka {t}", "P+R {t}-{d}", ["sever", "jih", "východ", "západ"], "Náměstí Míru 1, {t}", "Nádražní 1, {t}"),
  sk: N("Železničná stanica {t}", "{t} hlavná stanica", "{t} centrum", "Výjazd {n} {t}-{d}", "Odpočívadlo {t}", "P+R {t}-{d}", ["sever", "juh", "východ", "západ"], "Hlavné námestie 1, {t}", "Staničná 1, {t}"),
  hu: N("{t} vasútállomás", "{t} főpályaudvar", "{t} központ", "{n}. kijárat {t}-{d}", "{t} pihenőhely", "P+R {t}-{d}", ["észak", "dél", "kelet", "nyugat"], "Fő tér 1, {t}", "Állomás utca 1, {t}"),
  ro: N("Gara {t}", "Gara {t} Nord", "{t} Centru", "Ieșirea {n} {t} {d}", "Spațiu de servicii {t}", "Park & Ride {t} {d}", ["Nord", "Sud", "Est", "Vest"], "Piața Unirii 1, {t}", "Strada Gării 1, {t}"),
  sr: N("Železnička stanica {t}", "Glavna železnička stanica {t}", "{t} centar", "Izlaz {n} {t} {d}", "Odmorište {t}", "P+R {t} {d}", ["sever", "jug", "istok", "zapad"], "Glavni trg 1, {t}", "Železnička 1, {t}"),
  hr: N("Kolodvor {t}", "Glavni kolodvor {t}", "{t} centar", "Izlaz {n} {t} {d}", "Odmorište {t}", "P+R {t} {d}", ["sjever", "jug", "istok", "zapad"], "Glavni trg 1, {t}", "Kolodvorska 1, {t}"),
  ru: N("Вокзал {t}", "{t}, главный вокзал", "Центр, {t}", "Съезд {n} {t}-{d}", "Придорожный комплекс {t}", "Перехватывающая парковка {t}-{d}", ["Север", "Юг", "Восток", "Запад"], "Центральная площадь, 1, {t}", "Привокзальная площадь, 1, {t}"),
  uk: N("Вокзал {t}", "{t}-Головний", "Центр, {t}", "З'їзд {n} {t}-{d}", "Зона відпочинку {t}", "Перехоплювальний паркінг {t}-{d}", ["Північ", "Південь", "Схід", "Захід"], "Центральна площа, 1, {t}", "Привокзальна площа, 1, {t}"),
  tr: N("{t} Garı", "{t} Merkez Garı", "{t} Merkez", "Çıkış {n} {t} {d}", "{t} Dinlenme Tesisi", "{t} {d} Park Et Devam Et", ["Kuzey", "Güney", "Doğu", "Batı"], "Cumhuriyet Meydanı, {t}", "İstasyon Caddesi, {t}")
}

const FIRST_LANGUAGE = new Map(COUNTRY_PROFILES.map((p) => [p.country, p.languages[0]!]))
/** The neighbour countries, by the generator language closest to their signs (English otherwise). */
const NEIGHBOUR_LANGUAGE: Readonly<Record<string, Language>> = { LU: "fr", MC: "fr", LI: "de", AD: "es", MD: "ro", BY: "ru", ME: "sr", BA: "hr" }

/**
 * The language a meeting point at this place is named in: the country's, Dutch in northern
 * Belgium, French and Italian in western and southern Switzerland.
 */
export const meetingPointLanguage = (country: string, lat: number, lon: number): Language => {
  if (country === "BE") return lat > 50.75 ? "nl" : "fr"
  if (country === "CH") return lon < 7.2 ? "fr" : lat < 46.45 && lon > 8.4 ? "it" : "de"
  return FIRST_LANGUAGE.get(country) ?? NEIGHBOUR_LANGUAGE[country] ?? "en"
}
