import type { MessageKey, Translate } from "./messages/catalogue.js"

/**
 * The colours the feed's drivers pick from (the generator's `CAR_COLORS`, packages/dataset), by
 * their English names as the feed writes them (the API passes `car.color` on untouched).
 */
const COLOUR_KEYS: ReadonlyMap<string, MessageKey> = new Map([
  ["black", "color_black"],
  ["white", "color_white"],
  ["grey", "color_grey"],
  ["gray", "color_grey"],
  ["dark grey", "color_dark_grey"],
  ["dark gray", "color_dark_grey"],
  ["silver", "color_silver"],
  ["dark blue", "color_dark_blue"],
  ["blue", "color_blue"],
  ["red", "color_red"],
  ["green", "color_green"],
  ["beige", "color_beige"],
  ["brown", "color_brown"],
  ["yellow", "color_yellow"],
  ["orange", "color_orange"]
] as const)

/** A car's colour in the page's language; a colour outside the feed's set as the feed wrote it. */
export const carColour = (color: string, t: Translate): string => {
  const key = COLOUR_KEYS.get(color.trim().toLowerCase().replace(/[\s_-]+/g, " "))
  return key === undefined ? color : t(key)
}
