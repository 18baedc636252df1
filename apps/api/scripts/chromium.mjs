// How the website's browser tests, screenshots and Lighthouse runs start Chromium: Debian's, or the
// executable TRIPSEARCH_CHROMIUM names, headless, as root (no sandbox), without a GPU, and without
// fetching anything on its own (these machines reach no update or component servers).
export const CHROMIUM = process.env.TRIPSEARCH_CHROMIUM ?? "/usr/bin/chromium"
export const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
