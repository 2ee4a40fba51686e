export { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
export type { PostgresCheckpointStoreOptions, PostgresWorkerOptions } from './postgres-checkpoint-store.js';
export { PostgresSessionStore } from './postgres-session-store.js';
export { PostgresError } from './postgres-error.js';
export type { PostgresErrorCode, PostgresErrorOptions } from './postgres-error.js';
export { migrate, SCHEMA_VERSION } from './migrate.js';
export type { PostgresPool } from './pg-connection.js';
export { PostgresAuditBus } from './postgres-audit-bus.js';
