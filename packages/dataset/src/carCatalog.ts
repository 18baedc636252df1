import type { Comfort } from "@tripsearch/core"

export interface CarModel {
  readonly make: string
  readonly model: string
  readonly category: string
  /** The comfort drivers of this model most often declare. */
  readonly comfort: Comfort
}

/** Makes, models and categories in the style of the recorded responses (upper-case makes and models). */
export const CAR_MODELS: ReadonlyArray<CarModel> = [
  { make: "VOLKSWAGEN", model: "GOLF", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "VOLKSWAGEN", model: "GOLF VI", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "VOLKSWAGEN", model: "PASSAT", category: "CATEGORY_BREAK", comfort: "Comfortable" },
  { make: "VOLKSWAGEN", model: "POLO", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "VOLKSWAGEN", model: "TOURAN", category: "CATEGORY_MONOSPACE", comfort: "Normal" },
  { make: "PEUGEOT", model: "208", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "PEUGEOT", model: "308", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "PEUGEOT", model: "508", category: "CATEGORY_BERLINE", comfort: "Comfortable" },
  { make: "PEUGEOT", model: "3008", category: "CATEGORY_4X4", comfort: "Comfortable" },
  { make: "RENAULT", model: "CLIO", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "RENAULT", model: "MEGANE II", category: "CATEGORY_BREAK", comfort: "Normal" },
  { make: "RENAULT", model: "SCENIC", category: "CATEGORY_MONOSPACE", comfort: "Normal" },
  { make: "CITROEN", model: "C3", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "CITROEN", model: "C4 PICASSO", category: "CATEGORY_MONOSPACE", comfort: "Normal" },
  { make: "DACIA", model: "SANDERO", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "DACIA", model: "DUSTER", category: "CATEGORY_4X4", comfort: "Normal" },
  { make: "FORD", model: "FIESTA", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "FORD", model: "FOCUS", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "FORD", model: "MONDEO", category: "CATEGORY_BREAK", comfort: "Normal" },
  { make: "OPEL", model: "ASTRA", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "OPEL", model: "VECTRA", category: "CATEGORY_BERLINE", comfort: "Normal" },
  { make: "OPEL", model: "CORSA", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "FIAT", model: "PUNTO", category: "CATEGORY_BERLINE", comfort: "Normal" },
  { make: "FIAT", model: "PANDA", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "FIAT", model: "500", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "ALFA ROMEO", model: "MiTo", category: "CATEGORY_TOURISM", comfort: "Comfortable" },
  { make: "AUDI", model: "A3", category: "CATEGORY_TOURISM", comfort: "Comfortable" },
  { make: "AUDI", model: "A4", category: "CATEGORY_BREAK", comfort: "Comfortable" },
  { make: "AUDI", model: "Q5", category: "CATEGORY_4X4", comfort: "Comfortable" },
  { make: "BMW", model: "3 SERIES", category: "CATEGORY_BREAK", comfort: "Comfortable" },
  { make: "BMW", model: "330", category: "CATEGORY_BERLINE", comfort: "Comfortable" },
  { make: "BMW", model: "3 SERIES", category: "CATEGORY_CABRIOLET", comfort: "Luxury" },
  { make: "MERCEDES", model: "CLK", category: "CATEGORY_CABRIOLET", comfort: "Luxury" },
  { make: "MERCEDES", model: "GLA 200 CDI", category: "CATEGORY_4X4", comfort: "Comfortable" },
  { make: "MERCEDES-BENZ", model: "E 350", category: "CATEGORY_BERLINE", comfort: "Luxury" },
  { make: "TESLA", model: "MODEL X", category: "CATEGORY_BERLINE", comfort: "Luxury" },
  { make: "TESLA", model: "MODEL 3", category: "CATEGORY_BERLINE", comfort: "Luxury" },
  { make: "TOYOTA", model: "YARIS", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "TOYOTA", model: "COROLLA", category: "CATEGORY_BERLINE", comfort: "Normal" },
  { make: "HYUNDAI", model: "GENESIS", category: "CATEGORY_BERLINE", comfort: "Normal" },
  { make: "HYUNDAI", model: "I30", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "KIA", model: "SORENTO", category: "CATEGORY_4X4", comfort: "Comfortable" },
  { make: "SEAT", model: "Arona", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "SEAT", model: "LEON", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "SKODA", model: "OCTAVIA", category: "CATEGORY_BREAK", comfort: "Normal" },
  { make: "SKODA", model: "FABIA", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "MINI", model: "COOPER", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "SUBARU", model: "LEGACY", category: "CATEGORY_BREAK", comfort: "Normal" },
  { make: "VOLVO", model: "V70", category: "CATEGORY_BREAK", comfort: "Comfortable" },
  { make: "LADA", model: "VESTA", category: "CATEGORY_BERLINE", comfort: "Basic" },
  { make: "LADA", model: "GRANTA", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "TATA", model: "NEXON", category: "CATEGORY_4X4", comfort: "Normal" },
  { make: "MARUTI SUZUKI", model: "SWIFT", category: "CATEGORY_TOURISM", comfort: "Basic" },
  { make: "CHEVROLET", model: "ONIX", category: "CATEGORY_TOURISM", comfort: "Normal" },
  { make: "NISSAN", model: "VERSA", category: "CATEGORY_BERLINE", comfort: "Normal" },
  { make: "RENAULT", model: "MEGANE", category: "CATEGORY_UTILITY", comfort: "Basic" }
]

/** Colour names as drivers pick them, with the hexadecimal the site shows. */
export const CAR_COLORS: ReadonlyArray<readonly [name: string, hexa: string]> = [
  ["Black", "000000"], ["White", "FFFFFF"], ["Grey", "808080"], ["Dark grey", "4A4A4A"], ["Silver", "C0C0C0"],
  ["Dark blue", "0B2742"], ["Blue", "1F5FBF"], ["Red", "B3131B"], ["Green", "2E6B30"], ["Beige", "D8C8A8"],
  ["Brown", "6B4226"], ["Yellow", "F2C500"], ["Orange", "E8730C"]
]

/** Vehicle silhouettes, as the site's car pictures. */
export const CAR_PICTURES: ReadonlyArray<string> = ["car-suv", "car-sedan", "car-hatchback", "car-van", "car-convertible"]
