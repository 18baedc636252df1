export * from "./fixtures.js"
export * from "./storePortSuite.js"
