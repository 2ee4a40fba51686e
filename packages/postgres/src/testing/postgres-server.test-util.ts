// The real PostgreSQL server of the tests lives in the repository's test machinery, shared with
// the suites of other packages (the dashboard's fleet test); this file keeps the local import path.
export { POSTGRES_MISSING, TEST_PASSWORD, findPostgresBin, startPostgres } from '@headway/test-utils/servers';
export type { PostgresServer } from '@headway/test-utils/servers';
