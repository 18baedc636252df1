// One throwaway PostgreSQL cluster for the example's run over a PostgreSQL store.
export { provideCluster as default } from "@tripsearch/store-tests/postgres-cluster"
