// Every answer a test of this package receives through `fetch` is checked against the OpenAPI
// document the server serves (the same one: openApi.test.ts compares them): a test fails on an
// answer the document does not describe, whatever it asserts itself.
import { installCheckedFetch } from "@tripsearch/openapi-contract"
import { openApiDocument } from "../src/index.js"

installCheckedFetch(openApiDocument("http://localhost:3000"))
