import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { describeThrown, errorMessage } from '@headway/protocol/internal';
import { seqOfEntryId } from './keys.js';
import { RedisError } from './redis-error.js';

/** The stream field that holds the event's JSON. */
const EVENT_FIELD = 'e';

/** Default largest event JSON accepted from a stream (1 MiB). */
export const DEFAULT_MAX_EVENT_BYTES: number = 1024 * 1024;

/** What {@link decodeStreamEntry} returns. */
export type DecodedEntry = { ok: true; id: string; event: ProgressEvent } | { ok: false; id: string | undefined; error: RedisError };

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return undefined;
}

function invalid(runId: string, id: string | undefined, reason: string, cause?: unknown): DecodedEntry {
  const where = id === undefined ? 'an entry' : `entry ${JSON.stringify(id.slice(0, 40))}`;
  return {
    ok: false,
    id,
    error: new RedisError('REDIS_INVALID_ENTRY', `Skipped ${where} of run ${JSON.stringify(runId)}: ${reason}`, {
      runId,
      ...(id === undefined ? {} : { entryId: id }),
      ...(cause === undefined ? {} : { cause }),
    }),
  };
}

/**
 * Turns one raw stream entry (`[id, [field, value, …]]`, as XRANGE / XREAD answer) of
 * `runId` into its event, or says why it is not one: it must be written the way a sink
 * writes (id `<seq>-0`, one field `e` holding at most `maxBytes` of JSON), be a valid
 * progress event, and be of this run with the `seq` of its id. Never throws, whatever the
 * entry (a foreign writer, a partial write, a hostile value).
 */
export function decodeStreamEntry(runId: string, entry: unknown, maxBytes: number = DEFAULT_MAX_EVENT_BYTES): DecodedEntry {
  let id: string | undefined;
  try {
    if (!Array.isArray(entry) || entry.length !== 2) return invalid(runId, undefined, 'not an [id, fields] pair');
    id = text(entry[0]);
    if (id === undefined) return invalid(runId, undefined, 'its id is not a string');
    const seq = seqOfEntryId(id);
    if (seq === undefined) return invalid(runId, id, 'its id is not "<seq>-0" (not written by a headway sink)');
    const fields: unknown = entry[1];
    if (!Array.isArray(fields) || fields.length !== 2 || text(fields[0]) !== EVENT_FIELD) {
      return invalid(runId, id, `it does not have exactly one field "${EVENT_FIELD}"`);
    }
    const json = text(fields[1]);
    if (json === undefined) return invalid(runId, id, 'its value is not text');
    if (json.length > maxBytes) return invalid(runId, id, `its value is longer than ${maxBytes} characters`);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return invalid(runId, id, 'its value is not JSON (a partial write?)');
    }
    let event: ProgressEvent;
    try {
      event = parseProgressEvent(value);
    } catch (error) {
      return invalid(runId, id, errorMessage(error), error);
    }
    if (event.runId !== runId) return invalid(runId, id, `it belongs to run ${JSON.stringify(event.runId.slice(0, 60))}`);
    if (event.seq !== seq) return invalid(runId, id, `its seq ${event.seq} does not match its id`);
    return { ok: true, id, event };
  } catch (error) {
    // A hostile value (a throwing getter, a revoked proxy) ends here, not in the reader.
    return invalid(runId, id, `it could not be read (${describeThrown(error)})`, error);
  }
}

/** The XADD field/value pair of an event: its JSON under {@link EVENT_FIELD}. */
export function encodeEvent(event: ProgressEvent): string {
  return JSON.stringify(event);
}
