/**
 * Real servers for the suites that need one: PostgreSQL (`initdb` into a temp dir) and
 * redis-server, on 127.0.0.1 and a free port, never outliving the test process. Its own entry
 * (`@headway/test-utils/servers`), so suites that start no server never load `pg`.
 *
 * @packageDocumentation
 */
export { POSTGRES_MISSING, TEST_PASSWORD, findPostgresBin, startPostgres } from './postgres-server.js';
export type { PostgresServer } from './postgres-server.js';
export { startRedisServer } from './redis-server.js';
export type { RedisServer } from './redis-server.js';
