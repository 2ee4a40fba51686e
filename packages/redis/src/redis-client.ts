/**
 * The part of a node-redis client this package uses: a client from `createClient()` of
 * `redis` or `@redis/client` (v5 or v6) fits, connected or not.
 */
export interface RedisCommandClient {
  /** Sends one command; commands sent in the same tick go out as one pipeline. */
  sendCommand(args: readonly string[]): Promise<unknown>;
}

/** A client the replay log can also open its one blocking connection from. */
export interface RedisDuplicableClient extends RedisCommandClient {
  /** A new client with the same options (node-redis `duplicate()`), not yet connected. */
  duplicate(): RedisBlockingClient;
  /** node-redis: `false` while the connection is down (requests then fail fast instead of queueing). */
  readonly isReady?: boolean;
}

/** The blocking connection's client. */
export interface RedisBlockingClient extends RedisCommandClient {
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** True for an error reply from the server (as opposed to a lost connection). */
export function isServerReply(error: unknown): error is Error {
  // node-redis's ErrorReply; a copy of it from another install would fail `instanceof`, so
  // look at the shape of the message instead: replies start with an upper-case code.
  return error instanceof Error && /^[A-Z][A-Z_]+ /.test(error.message) && !error.message.startsWith('ECONN');
}

/** Server replies that mean "not now" (Redis loading its AOF after a restart, busy, a replica failing over). */
export function isTransientReply(error: Error): boolean {
  return /^(?:LOADING|BUSY|TRYAGAIN|MASTERDOWN|READONLY|CLUSTERDOWN) /.test(error.message);
}
