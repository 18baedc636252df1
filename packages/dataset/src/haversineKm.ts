// One great-circle function for the whole project: the generator's distances are the matcher's.
export { haversineKm } from "@tripsearch/core"
