// One throwaway PostgreSQL cluster for the replay tool's tests over a PostgreSQL store.
export { provideCluster as default } from "@tripsearch/store-tests/postgres-cluster"
