export * from "./openApiContract.js"
export * from "./checkedFetch.js"
