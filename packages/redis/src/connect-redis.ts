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

/**
 * `url` as it may be shown: the password replaced by `***`. A URL that does not parse is
 * not shown at all (it could be a password pasted in the wrong place).
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unparsable Redis URL)';
  }
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
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
    // The reason comes from the socket (ECONNREFUSED 127.0.0.1:6379 …), never from the URL's credentials.
    throw new RedisError(
      'REDIS_UNREACHABLE',
      `Redis at ${shown} could not be reached after ${attempts} attempt(s): ${reason.replaceAll(url, shown)}`,
      {
        cause: lastCause ?? error,
      },
    );
  }
  connected = true;
  return client;
}
