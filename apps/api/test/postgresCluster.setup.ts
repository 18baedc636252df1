// One throwaway PostgreSQL cluster for the API's tests over a PostgreSQL store.
export { provideCluster as default } from "@tripsearch/store-tests/postgres-cluster"
