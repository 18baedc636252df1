import { packageProject } from "@tripsearch/vitest-config"

// One throwaway PostgreSQL cluster for the package's tests; each test makes its own database in it.
export default packageProject(import.meta.url, { globalSetup: ["./test/postgresCluster.setup.ts"] })
