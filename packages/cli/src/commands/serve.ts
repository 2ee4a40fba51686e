import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createDashboardHandler } from '@headway/dashboard';
import { errorMessage } from '@headway/protocol/internal';
import { numberOption, parseCommand, showHelp, stringOption } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { openStores, STORE_URL_HELP } from '../store-url.js';

const SERVE_USAGE =
  'headway serve --store sqlite:PATH|postgres://… [--redis redis://…] [--host 127.0.0.1] [--port 4400] [--token T] [--active-within MS] [--reports DIR]';

const SERVE_HELP = `${SERVE_USAGE}

Every run of a checkpoint store on one page (@headway/dashboard): live runs first, each with its
bar, ETA range, state, iteration, spend, age, worker and task; filters, search, and a page per run
(/runs/ID) with its iterations, tools, plan, saved report and chain of continuations. The page
updates live (Server-Sent Events) and reconnects by itself. Runs until Ctrl-C.

It prints a one-time link that signs the browser in (an HttpOnly cookie); actions need it. Abandon
is done at once; Continue, Resume and Cancel are written as requests beside the checkpoints, which
a worker running createRunRequestWorker (@headway/dashboard) claims and carries out. On a host
other than 127.0.0.1 every request needs the token.

Many workers, many web processes: --store postgres://… (runs, checkpoints, requests) and
--redis redis://… (each run's live events, /api/live/runs/ID, resumed after a reconnect; needs
@headway/redis and @headway/sse installed). Any number of serve processes can share them.

Options:
  ${STORE_URL_HELP}
  --redis URL          redis://… the workers publish events to (createRedisSink); default $HEADWAY_REDIS
  --host H             the address to listen on (default 127.0.0.1)
  --port N             the port (default 4400; 0 picks a free one)
  --token T            the sign-in token (default a random one; or $HEADWAY_DASHBOARD_TOKEN)
  --active-within MS   on SQLite, a running run not written for longer reads interrupted (default
                       60000); on Postgres a run reads interrupted when its worker's lease expired
  --reports DIR        where the runs' saved reports are (default .headway/reports)

Exit codes: 0 stopped with Ctrl-C, 1 failed (the port is taken), 2 bad usage or store URL.

Examples:
  headway serve --store sqlite:.headway/agent.db
  headway serve --store postgres://localhost/agents --redis redis://127.0.0.1:6379 --host 0.0.0.0`;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `headway serve`. */
export async function serveCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      store: { type: 'string' },
      redis: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      'active-within': { type: 'string' },
      reports: { type: 'string' },
    },
    SERVE_USAGE,
  );
  if (showHelp(values, SERVE_HELP, io)) return EXIT.ok;
  if (positionals.length > 0) throw new CliError('CLI_USAGE', `serve takes no arguments\nusage: ${SERVE_USAGE}`);
  const host = stringOption(values, 'host') ?? '127.0.0.1';
  const port = numberOption(values, 'port', 4400) ?? 4400;
  if (!Number.isInteger(port) || port > 65_535)
    throw new CliError('CLI_USAGE', `--port must be a whole number 0–65535\nusage: ${SERVE_USAGE}`);
  const activeWithinMs = numberOption(values, 'active-within', 60_000) ?? 60_000;
  const token = stringOption(values, 'token') ?? io.env.HEADWAY_DASHBOARD_TOKEN ?? randomBytes(24).toString('base64url');
  if (!/^[\w-]{16,200}$/.test(token)) throw new CliError('CLI_USAGE', '--token must be 16–200 letters, digits, - or _');
  const redisUrl = stringOption(values, 'redis') ?? io.env.HEADWAY_REDIS;
  if (redisUrl !== undefined && redisUrl !== '' && !/^rediss?:\/\//.test(redisUrl))
    throw new CliError('CLI_STORE_URL', `--redis must be a redis:// or rediss:// URL\nusage: ${SERVE_USAGE}`);
  const stores = await openStores(stringOption(values, 'store') ?? io.env.HEADWAY_STORE);
  let live: LiveEvents | undefined;
  try {
    live = redisUrl === undefined || redisUrl === '' ? undefined : await openLiveEvents(redisUrl, io);
  } catch (error) {
    await stores.close();
    throw error;
  }
  const close = async (): Promise<void> => {
    try {
      await live?.close();
    } finally {
      await stores.close();
    }
  };
  const server = createServer(
    createDashboardHandler({
      checkpoints: stores.checkpoints,
      ...(live === undefined ? {} : { live: live.handler }),
      clock: ioClock(io),
      token,
      activeWithinMs,
      reportsDir: stringOption(values, 'reports') ?? join('.headway', 'reports'),
      requireTokenToRead: !LOOPBACK.has(host),
      onInternalError: (error, { where }) => {
        io.stderr.write(`headway serve: ${where} failed: ${errorMessage(error)}\n`);
      },
    }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await close();
    throw new CliError('CLI_LISTEN', `cannot listen on ${host}:${String(port)}: ${errorMessage(error)}`, { cause: error });
  }
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${String(address.port)}`;
  io.stdout.write(`headway serve: ${origin}/\nsign in (once per browser): ${origin}/auth?token=${token}\n`);
  await new Promise<void>((resolve) => {
    if (io.signal === undefined) return;
    if (io.signal.aborted) resolve();
    else
      io.signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
  });
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  await close();
  return EXIT.ok;
}

/** Each run's live events from Redis, served as SSE (`@headway/redis` and `@headway/sse`, loaded only for `--redis`). */
interface LiveEvents {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** The shapes `headway serve` expects of `@headway/redis` and `@headway/sse`, loaded only for `--redis`. */
interface RedisModule {
  connectRedis: (url: string) => Promise<{ destroy: () => void }>;
  createRedisReplayLog: (
    client: unknown,
    options?: { onInternalError?: (error: unknown, context: { where: string }) => void },
  ) => {
    close(): Promise<void>;
  };
  redactRedisUrl: (url: string) => string;
}
interface SseModule {
  createSseHandler: (options: { source: unknown }) => (req: IncomingMessage, res: ServerResponse) => void;
}

async function openLiveEvents(url: string, io: CliIo): Promise<LiveEvents> {
  let redis: RedisModule;
  let sse: SseModule;
  const names = ['@headway/redis', '@headway/sse'];
  try {
    redis = (await import(names[0] ?? '')) as RedisModule;
    sse = (await import(names[1] ?? '')) as SseModule;
  } catch (error) {
    throw new CliError('CLI_STORE_MISSING', '--redis needs @headway/redis and @headway/sse: npm install @headway/redis @headway/sse', {
      cause: error,
    });
  }
  let client: Awaited<ReturnType<RedisModule['connectRedis']>>;
  try {
    client = await redis.connectRedis(url);
  } catch (error) {
    throw new CliError('CLI_LISTEN', `cannot reach ${redis.redactRedisUrl(url)}: ${errorMessage(error)}`, { cause: error });
  }
  const log = redis.createRedisReplayLog(client, {
    onInternalError: (error, { where }) => {
      io.stderr.write(`headway serve: redis ${where} failed: ${errorMessage(error)}\n`);
    },
  });
  return {
    handler: sse.createSseHandler({ source: log }),
    close: async () => {
      try {
        await log.close();
      } finally {
        client.destroy();
      }
    },
  };
}
