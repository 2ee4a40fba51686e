/**
 * Helpers for writing a `CheckpointStore` or `SessionStore` (`@headway/store-sqlite`, a Postgres
 * store, your own): the JSON codec, validation and typed errors every store shares, so what is
 * accepted, stored and read back is the same whatever the backend. Check a store with the suites
 * of `@headway/runtime/testing/conformance`.
 *
 * @packageDocumentation
 */
export {
  checkRow,
  conflict as checkpointConflict,
  decodeJson,
  decodeState,
  decodeToolCall,
  encodeJson,
  notFound as checkpointNotFound,
  notRunning as checkpointNotRunning,
  validateInit as validateCheckpointInit,
  validateUpdate as validateCheckpointUpdate,
} from './checkpoint/checkpoint-codec.js';
export {
  CHECKPOINT_COLUMNS,
  CHECKPOINT_FULL_COLUMNS,
  CHECKPOINT_INSERT_COLUMNS,
  CHECKPOINT_SUMMARY_COLUMNS,
  checkExpected as checkCheckpointExpected,
  decodeCountsRow as decodeCheckpointCountsRow,
  decodeSequenceRows as decodeCheckpointSequenceRows,
  decodeSummaryRow as decodeCheckpointSummaryRow,
  encodeInit as encodeCheckpointInit,
  encodeUpdate as encodeCheckpointUpdate,
  filterStatuses as checkpointFilterStatuses,
  insertValues as checkpointInsertValues,
} from './checkpoint/checkpoint-rows.js';
export type {
  CountsRow as CheckpointCountsRow,
  EncodedInit as EncodedCheckpointInit,
  EncodedUpdate as EncodedCheckpointUpdate,
} from './checkpoint/checkpoint-rows.js';
export { SESSION_COLUMNS, renderColumns } from './store/store-columns.js';
export type { StoreColumn, StoreColumnTypes } from './store/store-columns.js';
export { blobRef } from './checkpoint/blob-ref.js';
export { RUN_REQUEST_COLUMNS, decodeRunRequestRow, runRequestLeaseMs, validateRunRequestInit } from './checkpoint/run-request-store.js';
export { CHECKPOINT_STATUSES } from './checkpoint/checkpoint.js';
export {
  SESSION_SUMMARY_COLUMNS,
  decodeMessage as decodeSessionMessage,
  decodeMessageRows as decodeSessionMessageRows,
  decodeSummaryRow as decodeSessionSummaryRow,
  encodeRun as encodeSessionRun,
  sessionExists,
  sessionNotFound,
  validateSessionId,
} from './session/session-codec.js';
