import { RedisError } from './redis-error.js';

/**
 * Run ids become part of Redis keys, so only characters that cannot end the hash tag,
 * start a glob or separate a key part are allowed (ids from `crypto.randomUUID()`, ULIDs
 * and `run-42` style ids all pass).
 */
const RUN_ID = /^[\w.~-]{1,200}$/;

/** The Redis keys of one run and of the run index, under `prefix`. */
export interface RunKeys {
  /** The run's stream: one entry per event, id `<seq>-0`, field `e` = the event as JSON. */
  readonly stream: string;
  /** The run's hash in the run index: state, timestamps, last seq. */
  readonly meta: string;
  /** Exists while the worker writing the run holds its lease. */
  readonly lease: string;
}

/** True when `runId` can be used in keys (see {@link assertRunId}). */
export function isValidRunId(runId: unknown): runId is string {
  return typeof runId === 'string' && RUN_ID.test(runId);
}

/**
 * Returns `runId` when it can be used in keys, so it can never escape its key prefix.
 *
 * @throws {RedisError} `REDIS_INVALID_RUN_ID` unless `runId` is 1–200 of `A–Z a–z 0–9 _ . ~ -`.
 */
export function assertRunId(runId: unknown): string {
  if (isValidRunId(runId)) return runId;
  const shown = typeof runId === 'string' ? JSON.stringify(runId.slice(0, 60)) : typeof runId;
  throw new RedisError(
    'REDIS_INVALID_RUN_ID',
    `Run id ${shown} is refused: only 1-200 letters, digits, "_", ".", "~" and "-" are allowed, so its keys stay under the prefix`,
  );
}

/** The keys of `runId` under `prefix` (the id is checked first). The braces are a cluster hash tag. */
export function runKeys(prefix: string, runId: string): RunKeys {
  assertRunId(runId);
  const base = `${prefix}run:{${runId}}`;
  return { stream: `${base}:events`, meta: `${base}:meta`, lease: `${base}:lease` };
}

/** The sorted set of runs (score: last activity, epoch ms). */
export function indexKey(prefix: string): string {
  return `${prefix}runs`;
}

/** Checks a key prefix: printable, no glob or hash-tag characters. */
export function checkPrefix(prefix: string | undefined): string {
  const value = prefix ?? 'headway:';
  if (!/^[\w.:~-]{0,100}$/.test(value)) {
    throw new RedisError('REDIS_INVALID_OPTIONS', 'prefix may only use letters, digits and "_ . : ~ -" (at most 100)');
  }
  return value;
}

/** The stream entry id of an event: derived from `seq`, so a retried write is refused as a duplicate. */
export function entryIdOf(seq: number): string {
  return `${seq}-0`;
}

/** The `seq` an entry id stands for, or `undefined` when the id was not written by a sink. */
export function seqOfEntryId(id: string): number | undefined {
  const match = /^([1-9]\d{0,15})-0$/.exec(id);
  if (match?.[1] === undefined) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/** Orders two stream ids (`ms-seq`) numerically. */
export function compareEntryIds(a: string, b: string): number {
  const [aMs = '0', aSeq = '0'] = a.split('-');
  const [bMs = '0', bSeq = '0'] = b.split('-');
  const byMs = BigInt(aMs) - BigInt(bMs);
  if (byMs !== 0n) return byMs < 0n ? -1 : 1;
  const bySeq = BigInt(aSeq) - BigInt(bSeq);
  return bySeq === 0n ? 0 : bySeq < 0n ? -1 : 1;
}
