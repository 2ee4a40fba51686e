import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { connectRedis, redactRedisUrl } from './connect-redis.js';

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('redactRedisUrl', () => {
  it.each([
    ['redis://app:s3cret@127.0.0.1:6379/0', 'redis://app:***@127.0.0.1:6379/0'],
    ['redis://127.0.0.1:6379/0?password=s3cret', 'redis://127.0.0.1:6379/0?password=***'],
    ['rediss://h:6380?db=2&Password=s3cret&auth_token=t0k', 'rediss://h:6380?db=2&Password=***&auth_token=***'],
    ['redis://s3cret@127.0.0.1:6379', 'redis://***@127.0.0.1:6379'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['not a url s3cret', '(an unparsable Redis URL)'],
  ])('%s is shown as %s', (url, shown) => {
    expect(redactRedisUrl(url)).toBe(shown);
  });
});

describe('connectRedis', () => {
  it.each([
    (port: number) => `redis://127.0.0.1:${port}/0?password=s3cret-pw`,
    (port: number) => `redis://app:s3cret-pw@127.0.0.1:${port}/0`,
    (port: number) => `redis://app:s3cret%2Fpw%40x@127.0.0.1:${port}/0`,
    (port: number) => `redis://s3cret-pw@127.0.0.1:${port}`,
  ])(
    'an unreachable Redis gives REDIS_UNREACHABLE, and neither the message nor the inspected error names the password (%#)',
    async (make) => {
      const url = make(await closedPort());
      const error: unknown = await connectRedis(url, { attempts: 1, connectTimeoutMs: 2000 }).catch((e: unknown) => e);
      expect(HeadwayError.isInstance(error, 'REDIS_UNREACHABLE')).toBe(true);
      const printed = `${(error as Error).message}\n${inspect(error, { depth: 10 })}`;
      expect(printed).toContain('could not be reached after 1 attempt(s)');
      expect(printed).toContain('***');
      for (const secret of ['s3cret', 's3cret%2Fpw', 's3cret/pw']) expect(printed).not.toContain(secret);
    },
    60_000,
  );
});
