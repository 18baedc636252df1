export * from "./timeZone.js"
