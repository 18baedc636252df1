import { packageProject } from "@tripsearch/vitest-config"

export default packageProject(import.meta.url, { globalSetup: ["./test/postgresCluster.setup.ts"], setupFiles: ["./test/openApiContract.setup.ts"] })
