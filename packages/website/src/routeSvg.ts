import { type Html, html } from "./html.js"

export interface RoutePoint {
  readonly city: string
  readonly lat: number
  readonly lon: number
}

const WIDTH = 320
const MAX_HEIGHT = 220
const MIN_HEIGHT = 80
const MARGIN = 20

/**
 * The route as an inline SVG: waypoints on an equirectangular projection (longitudes shrunk by
 * the cosine of the mean latitude, so that short routes keep their shape), the searched part
 * `from`..`to` drawn thicker. The drawing is as tall as the route needs, up to a square-ish box,
 * so that an east-west route leaves no empty band under it.
 */
export const routeSvg = (points: ReadonlyArray<RoutePoint>, from: number, to: number, title: string): Html => {
  const meanLat = points.reduce((s, p) => s + p.lat, 0) / Math.max(1, points.length)
  const k = Math.cos((meanLat * Math.PI) / 180)
  const xs = points.map((p) => p.lon * k)
  const ys = points.map((p) => -p.lat)
  const minX = Math.min(...xs)
  const minY = Math.min(...ys)
  const spanX = Math.max(Math.max(...xs) - minX, 1e-6)
  const spanY = Math.max(Math.max(...ys) - minY, 1e-6)
  const scale = Math.min((WIDTH - 2 * MARGIN) / spanX, (MAX_HEIGHT - 2 * MARGIN) / spanY)
  const height = Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, Math.ceil(spanY * scale + 2 * MARGIN)))
  // Centred in both directions: the narrower span leaves equal room on each side.
  const offsetX = (WIDTH - spanX * scale) / 2
  const offsetY = (height - spanY * scale) / 2
  const at = points.map((_, i) => ({
    x: Math.round((offsetX + (xs[i]! - minX) * scale) * 10) / 10,
    y: Math.round((offsetY + (ys[i]! - minY) * scale) * 10) / 10
  }))
  const line = (a: number, b: number) => at.slice(a, b + 1).map((p) => `${p.x},${p.y}`).join(" ")
  return html`<svg class="route" role="img" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>
<polyline points="${line(0, points.length - 1)}" fill="none" stroke="#9aa5b1" stroke-width="2"/>
<polyline points="${line(from, to)}" fill="none" stroke="#0b6bcb" stroke-width="5"/>
${points.map((p, i) => html`<circle cx="${at[i]!.x}" cy="${at[i]!.y}" r="${i >= from && i <= to ? 6 : 4}" fill="${i >= from && i <= to ? "#0b6bcb" : "#9aa5b1"}"><title>${p.city}</title></circle>`)}
</svg>`
}
