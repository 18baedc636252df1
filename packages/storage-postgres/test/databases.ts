import { randomBytes } from "node:crypto"
import postgres from "postgres"
import { inject } from "vitest"

/** A new, empty database in the test cluster; `drop` removes it, ending whatever is still connected. */
export const freshDatabase = async (): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const admin = inject("postgresUrl")
  const name = `t_${randomBytes(6).toString("hex")}`
  const sql = postgres(admin, { max: 1, onnotice: () => {} })
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`)
  } finally {
    await sql.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.href,
    drop: async () => {
      const again = postgres(admin, { max: 1, onnotice: () => {} })
      try {
        await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      } finally {
        await again.end()
      }
    }
  }
}
