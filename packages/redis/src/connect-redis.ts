import { createClient, type RedisClientType } from '@redis/client';
import { RedisError } from './redis-error.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Connection attempts before giving up at start (default 3). */
  attempts?: number;
  /** Each attempt's timeout (default 2000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts once connected (default 2000 ms); the client reconnects forever. */
  maxReconnectDelayMs?: number;
  /** Errors the client reports while reconnecting (default: ignored; the client recovers by itself). */
  onError?: (error: Error) => void;
}

/** Query parameters whose value is a credential (`?password=…`, `?auth=…`, `?token=…`). */
const SECRET_PARAM = /pass|secret|token|auth|key|credential/i;

/**
 * `url` as it may be shown: every credential replaced by `***`: the password of the userinfo, a
 * user name given without a password (`redis://s3cret@host` is how some clients take a bare
 * password), and query parameters such as `?password=`. A URL that does not parse is not shown
 * at all (it could be a password pasted in the wrong place).
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unparsable Redis URL)';
  }
  if (parsed.password !== '') parsed.password = '***';
  else if (parsed.username !== '') parsed.username = '***';
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

/** The credentials written in `url` (userinfo and secret query parameters), raw and decoded, to scrub from messages. */
function credentialsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found = [parsed.password, parsed.password === '' ? parsed.username : ''];
  for (const [name, value] of parsed.searchParams) if (SECRET_PARAM.test(name)) found.push(value, encodeURIComponent(value));
  for (const raw of [...found]) {
    try {
      found.push(decodeURIComponent(raw));
    } catch {
      // Not percent-encoded text: the raw form is enough.
    }
  }
  // Longest first, so a password that contains another is scrubbed whole.
  return [...new Set(found.filter((c) => c.length > 0))].sort((a, b) => b.length - a.length);
}

/** `text` with the URL and each of its credentials replaced by their redacted forms. */
function scrub(text: string, url: string, shown: string): string {
  let out = text.replaceAll(url, shown);
  for (const secret of credentialsOf(url)) out = out.replaceAll(secret, '***');
  return out;
}

/**
 * Creates a node-redis client for `url` and connects it, failing fast when Redis cannot be
 * reached at start; afterwards it reconnects forever (the sink and the replay log retry
 * what failed meanwhile).
 *
 * @throws {RedisError} `REDIS_UNREACHABLE` naming the URL (with its password redacted),
 * `REDIS_INVALID_OPTIONS` for a URL that does not parse.
 * @example
 * ```ts
 * const client = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * ```
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<RedisClientType> {
  const shown = redactRedisUrl(url);
  try {
    const protocol = new URL(url).protocol;
    // Caught below and turned into REDIS_INVALID_OPTIONS.
    if (protocol !== 'redis:' && protocol !== 'rediss:') throw new Error(protocol);
  } catch {
    throw new RedisError('REDIS_INVALID_OPTIONS', `Not a redis:// or rediss:// URL: ${shown}`);
  }
  const attempts = Math.max(1, options.attempts ?? 3);
  const maxDelay = Math.max(1, options.maxReconnectDelayMs ?? 2000);
  let connected = false;
  let lastCause: unknown;
  const client: RedisClientType = createClient({
    url,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 2000,
      reconnectStrategy: (retries: number, cause: Error) => {
        lastCause = cause;
        if (!connected && retries + 1 >= attempts) return false;
        return Math.min(maxDelay, 50 * 2 ** Math.min(retries, 10));
      },
    },
  });
  client.on('error', (error: Error) => {
    lastCause = error;
    if (connected) options.onError?.(error);
  });
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    const reason = lastCause instanceof Error ? lastCause.message : error instanceof Error ? error.message : 'connection failed';
    // The reason comes from the socket (ECONNREFUSED 127.0.0.1:6379 …) or the server (WRONGPASS …); it is
    // scrubbed anyway, and a cause whose text names a credential is not attached (an inspected error prints its cause).
    const cause: unknown = lastCause ?? error;
    const message = `Redis at ${shown} could not be reached after ${attempts} attempt(s): ${scrub(reason, url, shown)}`;
    const causeText = cause instanceof Error ? `${cause.message}\n${cause.stack ?? ''}` : '';
    const safeCause = causeText === scrub(causeText, url, shown);
    throw new RedisError('REDIS_UNREACHABLE', message, safeCause ? { cause } : {});
  }
  connected = true;
  return client;
}
