import { randomBytes } from "node:crypto"
import postgres from "postgres"
import { inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** The test cluster's superuser URL (its `postgres` database), from `provideCluster`. */
    postgresUrl: string
  }
}

/**
 * A new, empty database in the test project's cluster (`provideCluster`); `drop` removes it,
 * ending whatever is still connected to it.
 */
export const freshDatabase = async (): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const admin = inject("postgresUrl")
  const name = `t_${randomBytes(6).toString("hex")}`
  const run = async (statement: string) => {
    const sql = postgres(admin, { max: 1, onnotice: () => {} })
    try {
      await sql.unsafe(statement)
    } finally {
      await sql.end()
    }
  }
  await run(`CREATE DATABASE ${name}`)
  const url = new URL(admin)
  url.pathname = `/${name}`
  return { url: url.href, drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
