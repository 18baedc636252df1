export * from "./fixtures.js"
