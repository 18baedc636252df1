import { startPostgresCluster } from "@tripsearch/store-tests/postgres-cluster"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    /** The test cluster's superuser URL (its `postgres` database). */
    postgresUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster()
  project.provide("postgresUrl", cluster.url)
  return cluster.stop
}
