// The example's server over real HTTP: its page headers, and who may start a run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgUiPageServer, type AgUiPageServer } from './server.js';

let scratch: string;
let server: AgUiPageServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'headway-ag-ui-page-api-'));
  mkdirSync(join(scratch, 'page'));
  writeFileSync(join(scratch, 'page', 'index.html'), '<!doctype html><html><head><title>page</title></head></html>');
  server = await startAgUiPageServer({ pageDir: join(scratch, 'page'), modelDelayMs: 0 });
});

afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function pageToken(): Promise<string> {
  const html = await (await fetch(server.url)).text();
  const token = /<meta name="headway-page-token" content="([\w-]+)" \/>/.exec(html)?.[1];
  if (token === undefined) throw new Error(`no token in ${html}`);
  return token;
}

function input(forwardedProps: unknown): string {
  return JSON.stringify({
    threadId: 't',
    runId: `r-${Math.random()}`,
    messages: [{ id: 'm', role: 'user', content: 'What is headway?' }],
    tools: [],
    context: [],
    state: {},
    forwardedProps,
  });
}

async function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(new URL('/agent', server.url), { method: 'POST', body, headers: { accept: 'text/event-stream', ...headers } });
}

describe('AG-UI page server', () => {
  it('serves the page under a strict Content-Security-Policy, with a page token', async () => {
    const response = await fetch(server.url);
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(await response.text()).toMatch(/<title>page<\/title><meta name="headway-page-token" content="[\w-]{20,}" \/><\/head>/);
  });

  it('starts runs only for its own page: same origin, its token, JSON', async () => {
    const origin = new URL(server.url).origin;
    const token = await pageToken();
    const json = 'application/json';
    const refused = async (headers: Record<string, string>): Promise<string> => {
      const response = await post(input({}), headers);
      expect(response.status).toBe(403);
      return response.text();
    };
    expect(await refused({ 'content-type': json, 'x-headway-page-token': token })).toBe('cross-origin request refused: no Origin header');
    expect(await refused({ origin: 'http://evil.example', 'content-type': json, 'x-headway-page-token': token })).toBe(
      'cross-origin request refused: Origin "http://evil.example" is not this server',
    );
    expect(await refused({ origin, 'content-type': json })).toBe('request refused: no valid x-headway-page-token (reload the page)');
    expect(await refused({ origin, 'content-type': 'text/plain', 'x-headway-page-token': token })).toBe(
      'request refused: the body must be application/json',
    );
    const ok = await post(input({}), { origin, 'content-type': json, 'x-headway-page-token': token });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('"type":"RUN_FINISHED"');
  });

  it('validates forwardedProps and refuses to continue a run that left no report, naming the field', async () => {
    const headers = { origin: new URL(server.url).origin, 'content-type': 'application/json', 'x-headway-page-token': await pageToken() };
    const bad = await (await post(input({ maxIterations: 0, prompt: 'x' }), headers)).text();
    expect(bad).toContain(
      '"type":"RUN_ERROR","message":"forwardedProps: maxIterations: too small: expected number to be >=1; (root): unrecognized key: \\"prompt\\""',
    );
    const unknown = await (await post(input({ continueFrom: 'nope' }), headers)).text();
    expect(unknown).toContain('"message":"continueFrom: run \\"nope\\" left no progress report to continue from"');
  });
});
