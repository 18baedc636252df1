export * from "./fixtures.js"
export * from "./storePortSuite.js"
export * from "./postgresDatabases.js"
