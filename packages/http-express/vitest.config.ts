import { packageProject } from "@tripsearch/vitest-config"

export default packageProject(import.meta.url, { setupFiles: ["./test/openApiContract.setup.ts"] })
