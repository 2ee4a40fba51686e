// The real redis-server of the tests lives in the repository's test machinery, shared with the
// suites of other packages (the dashboard's fleet test); this file keeps the local import path.
export { startRedisServer } from '@headway/test-utils/servers';
export type { RedisServer } from '@headway/test-utils/servers';
