// A stand-in tile server on loopback for the screenshots and Lighthouse: every tile is the same
// 256 px PNG, a pale ground with a faint grid, so that pages are measured and pictured without
// fetching OpenStreetMap's tiles (whose usage policy forbids bulk and automated use).
import { createServer } from "node:http"
import { deflateSync } from "node:zlib"

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes) => {
  let c = 0xffffffff
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** A 256 x 256 RGB PNG: #eef1f4 with a #dde3ea line every 64 px. */
export const tilePng = () => {
  const size = 256
  const rows = []
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3)
    for (let x = 0; x < size; x++) {
      const line = x % 64 === 0 || y % 64 === 0
      row.set(line ? [0xdd, 0xe3, 0xea] : [0xee, 0xf1, 0xf4], 1 + x * 3)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows))), chunk("IEND", Buffer.alloc(0))])
}

/** Starts the stub on 127.0.0.1; resolves with its `MAP_TILES_URL` template and a way to stop it. */
export const startTileStub = async () => {
  const png = tilePng()
  const server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "image/png", "Content-Length": png.length, "Cache-Control": "public, max-age=86400" })
    res.end(req.method === "HEAD" ? undefined : png)
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  return { url: `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png`, close: () => new Promise((resolve) => server.close(resolve)) }
}
