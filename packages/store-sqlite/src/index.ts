export { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
export type { SqliteCheckpointStoreOptions } from './sqlite-checkpoint-store.js';
export { SqliteSessionStore } from './sqlite-session-store.js';
export type { SqliteDatabase } from './sqlite-database.js';
