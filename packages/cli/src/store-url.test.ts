// `--store` URLs whose password holds `/`, `@` or `:`: read as the URL rules say, never printed.
import { HeadwayError } from '@headway/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { openStores } from './store-url.js';

async function failure(url: string): Promise<CliError & { exitCode: number }> {
  try {
    const stores = await openStores(url);
    try {
      await stores.checkpoints.list();
    } finally {
      await stores.close();
    }
  } catch (error) {
    return error as CliError & { exitCode: number };
  }
  throw new Error(`${url} opened`);
}

describe('openStores with a postgres:// URL', () => {
  it.each([
    ['a port that is not a number', 'postgres://me:s3cret@db.example:port/agents'],
    ['a port out of range', 'postgres://me:s3cret@db.example:99999/agents'],
    ['no host', 'postgres://me:s3cret@/agents'],
    ['a raw / and @ in the password, and a bad port', 'postgres://me:s3/c@ret@db.example:x/agents'],
  ])('%s is bad usage (exit 2), naming no server and no password', async (_what, url) => {
    const error = await failure(url);
    expect(CliError.isInstance(error, 'CLI_STORE_URL')).toBe(true);
    expect(error.exitCode).toBe(2);
    expect(error.message).not.toMatch(/s3|c@ret|cret/);
    expect(error.message).not.toMatch(/connect/);
    expect(error.message).toContain('me:***@');
  });

  it.each([
    ['raw', 'postgres://me:p@ss/w:rd@127.0.0.1:1/agents'],
    ['percent-encoded', 'postgres://me:p%40ss%2Fw%3Ard@127.0.0.1:1/agents'],
  ])('a password with / @ : written %s reaches the server named by the URL, and is never printed', async (_how, url) => {
    // Nothing listens on port 1: the driver tried the server the URL names, with the whole password.
    const error = await failure(url);
    expect(HeadwayError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/127\.0\.0\.1:1\/agents/);
    expect(error.message).not.toMatch(/p@ss|ss\/w|w:rd|%40|%2F/);
  });

  it('an unknown scheme shows the URL without its password', async () => {
    const error = await failure('mysql://me:p@ss/w@h/db');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('mysql://me:***@h/db: not a store URL; expected sqlite:PATH or postgres://…');
  });

  it('never prints a password, whatever characters it holds', async () => {
    const password = fc.string({ unit: fc.constantFrom(...'/@:%?#ab9Z'.split('')), minLength: 1, maxLength: 24 }).map((p) => `Q${p}Q`);
    await fc.assert(
      fc.asyncProperty(password, async (pw) => {
        for (const url of [`postgres://me:${pw}@db.example:port/agents`, `mysql://me:${pw}@h/db`]) {
          const error = await failure(url);
          expect(error.exitCode).toBe(2);
          expect(error.message).not.toContain(pw);
        }
      }),
      { numRuns: 200 },
    );
  });
});
