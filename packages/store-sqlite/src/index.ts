export { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
export type { SqliteCheckpointStoreOptions } from './sqlite-checkpoint-store.js';
export { SqliteSessionStore } from './sqlite-session-store.js';
export type { SqliteDatabase } from './sqlite-database.js';
export { SqliteRunRequestStore } from './sqlite-run-request-store.js';
export type { SqliteRunRequestStoreOptions } from './sqlite-run-request-store.js';
