export * from "./openApiContract.js"
export * from "./checkedFetch.js"
export * from "./checkNodeAnswer.js"
