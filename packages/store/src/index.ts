export * from "./storeLayers.js"
export * from "./storeAdmin.js"
