import type { Sql } from "./connectPostgres.js"
import { CHANGES_CHANNEL } from "./importFeed.js"

export interface ChangeListener {
  /** Stops listening. */
  readonly close: () => Promise<void>
}

/**
 * Wakes a follower of the store at once when a change commits: `onChange` is called with the
 * store's new change sequence number for each NOTIFY on `tripsearch_changes`, and with `undefined`
 * each time the LISTEN is (re)established, the first time included. Notifications sent while the
 * listening connection was down are lost, so on `undefined` the follower catches up by the
 * sequence (`changesSince` from the last number it applied). The client reconnects by itself.
 */
export const listenForChanges = async (sql: Sql, onChange: (seq: number | undefined) => void): Promise<ChangeListener> => {
  const listening = await sql.listen(
    CHANGES_CHANNEL,
    (payload) => {
      const seq = Number(payload)
      onChange(Number.isSafeInteger(seq) ? seq : undefined)
    },
    () => onChange(undefined)
  )
  return { close: () => listening.unlisten() }
}
