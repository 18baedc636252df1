// One throwaway PostgreSQL cluster for this package's tests; each test makes its own database in it.
export { provideCluster as default } from "@tripsearch/store-tests/postgres-cluster"
