import { type Html, html } from "./html.js"

export interface RoutePoint {
  readonly city: string
  readonly lat: number
  readonly lon: number
}

const WIDTH = 320
const HEIGHT = 220
const MARGIN = 20

/**
 * The route as an inline SVG: waypoints on an equirectangular projection (longitudes shrunk by
 * the cosine of the mean latitude, so that short routes keep their shape), the searched part
 * `from`..`to` drawn thicker.
 */
export const routeSvg = (points: ReadonlyArray<RoutePoint>, from: number, to: number, title: string): Html => {
  const meanLat = points.reduce((s, p) => s + p.lat, 0) / Math.max(1, points.length)
  const k = Math.cos((meanLat * Math.PI) / 180)
  const xs = points.map((p) => p.lon * k)
  const ys = points.map((p) => -p.lat)
  const minX = Math.min(...xs)
  const minY = Math.min(...ys)
  const span = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY, 1e-6)
  const scale = Math.min(WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN) / span
  const at = points.map((_, i) => ({
    x: Math.round((MARGIN + (xs[i]! - minX) * scale) * 10) / 10,
    y: Math.round((MARGIN + (ys[i]! - minY) * scale) * 10) / 10
  }))
  const line = (a: number, b: number) => at.slice(a, b + 1).map((p) => `${p.x},${p.y}`).join(" ")
  return html`<svg class="route" role="img" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg"><title>${title}</title>
<polyline points="${line(0, points.length - 1)}" fill="none" stroke="#9aa5b1" stroke-width="2"/>
<polyline points="${line(from, to)}" fill="none" stroke="#0b6bcb" stroke-width="5"/>
${points.map((p, i) => html`<circle cx="${at[i]!.x}" cy="${at[i]!.y}" r="${i >= from && i <= to ? 6 : 4}" fill="${i >= from && i <= to ? "#0b6bcb" : "#9aa5b1"}"><title>${p.city}</title></circle>`)}
</svg>`
}
