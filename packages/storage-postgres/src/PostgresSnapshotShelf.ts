import type { SnapshotShelf, SnapshotTag } from "@tripsearch/core"
import { Option } from "effect"
import { closeSync, openSync, readSync, writeSync } from "node:fs"
import { once } from "node:events"
import { finished } from "node:stream/promises"
import type { Readable, Writable } from "node:stream"
import type { Sql } from "./connectPostgres.js"
import { storeRead } from "./unavailable.js"

/**
 * Bytes per row of `index_snapshot_chunks`: large enough that a 500 MB snapshot is ~120 rows, small
 * enough that the client holds one message of it at a time.
 */
export const SNAPSHOT_CHUNK = 4 * 1024 * 1024

/** Taken by whoever replaces the kept snapshot, so that two servers that scanned at once write one after the other. */
const SNAPSHOT_LOCK = 7_314_420_212

/** COPY's binary format: its signature, then 32-bit flags and the header extension's length (both 0). */
const COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)])
const COPY_TRAILER = Buffer.from([0xff, 0xff])

const tagOf = (row: { store_id: string; seq: number; format: number } | undefined): Option.Option<SnapshotTag> =>
  row === undefined ? Option.none() : Option.some({ storeId: row.store_id, seq: row.seq, format: row.format })

/**
 * Writes the rows of a binary `COPY (SELECT data ...) TO STDOUT` (one bytea column) to the file `fd`,
 * as they arrive; the number of bytes written. Read in flowing mode, each piece written before the
 * next is taken: the client pauses its socket when a push finds the stream's buffer full, and a
 * paused socket left at the end of the rows never reads the statement's completion.
 */
const copyOutTo = (stream: Readable, fd: number): Promise<number> =>
  new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0)
    // Bytes of the current field still to write; -1 between fields.
    let left = -1
    let headerSeen = false
    let done = false
    let written = 0
    const take = (piece: Buffer): void => {
      const buf = pending.length > 0 ? Buffer.concat([pending, piece]) : piece
      pending = Buffer.alloc(0)
      let at = 0
      while (at < buf.length && !done) {
        if (left > 0) {
          const n = Math.min(left, buf.length - at)
          for (let w = 0; w < n; ) w += writeSync(fd, buf, at + w, n - w)
          at += n
          left -= n
          written += n
          continue
        }
        if (!headerSeen) {
          if (buf.length - at < COPY_HEADER.length) break
          if (!buf.subarray(at, at + 11).equals(COPY_HEADER.subarray(0, 11))) throw new Error("not a binary COPY stream")
          const extension = buf.readUInt32BE(at + 15)
          if (buf.length - at < COPY_HEADER.length + extension) break
          at += COPY_HEADER.length + extension
          headerSeen = true
          continue
        }
        // A tuple's field count (1, or -1 at the end) and its one field's length.
        if (buf.length - at < 2) break
        const fields = buf.readInt16BE(at)
        if (fields === -1) {
          done = true
          at += 2
          break
        }
        if (buf.length - at < 6) break
        if (fields !== 1) throw new Error(`a snapshot chunk row of ${fields} fields`)
        left = buf.readInt32BE(at + 2)
        if (left < 0) throw new Error("a NULL snapshot chunk")
        at += 6
      }
      if (at < buf.length && !done) pending = Buffer.from(buf.subarray(at))
    }
    let failed = false
    stream.on("data", (piece: Buffer) => {
      if (failed) return
      try {
        take(piece)
      } catch (e) {
        failed = true
        reject(e)
      }
    })
    stream.once("error", reject)
    stream.once("end", () => (done ? resolve(written) : reject(new Error("the snapshot's chunks ended early"))))
  })

/**
 * The index snapshot kept in the database (`index_snapshot` and its chunks), for every server over
 * it: the first server that had to scan the store leaves it there, and the store CLI brings it up
 * to date after each import. It is read and written with binary COPY: the chunks' bytes travel as
 * they are, neither hex-encoded nor compressed.
 */
export const makePostgresSnapshotShelf = (sql: Sql): SnapshotShelf => ({
  where: "the database (table index_snapshot)",
  tag: storeRead(async () => {
    const [row] = await sql<Array<{ store_id: string; seq: number; format: number }>>`SELECT store_id, seq, format FROM index_snapshot`
    return tagOf(row)
  }, false),
  fetch: (path) =>
    storeRead(() =>
      // One snapshot: its tag and its chunks as one writer left them.
      sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
        const [row] = await tx<Array<{ store_id: string; seq: number; format: number; bytes: number }>>`SELECT store_id, seq, format, bytes FROM index_snapshot`
        if (row === undefined) return Option.none()
        const fd = openSync(path, "w")
        try {
          const stream = (await tx.unsafe("COPY (SELECT data FROM index_snapshot_chunks ORDER BY n) TO STDOUT (FORMAT binary)").readable()) as Readable
          const written = await copyOutTo(stream, fd)
          if (written !== row.bytes) throw new Error(`the kept snapshot has ${written} bytes, its tag says ${row.bytes}`)
        } finally {
          closeSync(fd)
        }
        return tagOf(row)
      }),
      false
    ),
  keep: (path, tag) =>
    storeRead(() =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SNAPSHOT_LOCK})`
        const [kept] = await tx<Array<{ store_id: string; seq: number; format: number; bytes: number }>>`SELECT store_id, seq, format, bytes FROM index_snapshot`
        const [{ seq: now } = { seq: 0 }] = await tx<Array<{ seq: number }>>`SELECT seq FROM change_seq`
        // A snapshot of the same store and layout at a later change is worth more than this one,
        // unless it is of a change the store has not reached (a database restored from before it),
        // or its chunks do not hold the bytes its tag says (every reader refuses it: replaced).
        if (kept !== undefined && kept.store_id === tag.storeId && kept.format === tag.format && kept.seq >= tag.seq && kept.seq <= now) {
          // octet_length reads a stored value's size without reading the value.
          const [{ held }] = await tx<Array<{ held: number }>>`SELECT coalesce(sum(octet_length(data)), 0)::int8 AS held FROM index_snapshot_chunks`
          if (held === kept.bytes) return false
        }
        await tx`DELETE FROM index_snapshot_chunks`
        const copy = (await tx.unsafe("COPY index_snapshot_chunks (n, data) FROM STDIN (FORMAT binary)").writable()) as Writable
        const fd = openSync(path, "r")
        let bytes = 0
        try {
          const write = async (b: Buffer) => {
            if (!copy.write(b)) await once(copy, "drain")
          }
          await write(COPY_HEADER)
          const buf = Buffer.allocUnsafe(SNAPSHOT_CHUNK)
          for (let n = 0; ; n++) {
            let got = 0
            while (got < SNAPSHOT_CHUNK) {
              const r = readSync(fd, buf, got, SNAPSHOT_CHUNK - got, null)
              if (r === 0) break
              got += r
            }
            if (got === 0) break
            // A tuple of 2 fields: int4 n, then bytea data; each field's length first.
            const head = Buffer.alloc(14)
            head.writeInt16BE(2, 0)
            head.writeInt32BE(4, 2)
            head.writeInt32BE(n, 6)
            head.writeInt32BE(got, 10)
            await write(head)
            // The client copies what it is given into its message: `buf` can be read into again.
            await write(buf.subarray(0, got))
            bytes += got
            if (got < SNAPSHOT_CHUNK) break
          }
          await write(COPY_TRAILER)
        } catch (e) {
          copy.destroy(e instanceof Error ? e : new Error(String(e)))
          await finished(copy).catch(() => {})
          throw e
        } finally {
          closeSync(fd)
        }
        copy.end()
        await finished(copy)
        await tx`
          INSERT INTO index_snapshot (store_id, seq, format, bytes, written_at)
          VALUES (${tag.storeId}, ${tag.seq}, ${tag.format}, ${bytes}, ${new Date().toISOString()})
          ON CONFLICT (one) DO UPDATE SET store_id = excluded.store_id, seq = excluded.seq, format = excluded.format,
            bytes = excluded.bytes, written_at = excluded.written_at`
        return true
      }),
      false
    )
})
