export * from "./createWebsite.js"
export * from "./html.js"
export * from "./pickLocale.js"
export * from "./messages/catalogue.js"
