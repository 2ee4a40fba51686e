// Hostile requests against the dashboard's HTTP endpoints: every one gets a 4xx answer saying
// what is wrong (or Node's own refusal for an oversized head), never a 500 or a hang, and the
// server keeps answering afterwards.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ManualClock } from '@headway/protocol';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardHandler } from './dashboard-server.js';

let store: SqliteCheckpointStore;
let server: Server;
let port: number;
const internal: unknown[] = [];

beforeAll(async () => {
  const clock = new ManualClock({ start: 1_000_000 });
  store = new SqliteCheckpointStore(':memory:', { clock });
  store.create({
    id: 'cp-1',
    runId: 'run-1',
    sessionId: 's',
    taskId: 't',
    input: 'task',
    messages: [],
    log: [],
    state: { iteration: 1, toolsUsed: [], usage: { inputTokens: 1, outputTokens: 1 }, spentUsd: 0, providerCalls: 1 },
  });
  server = createServer(
    createDashboardHandler({
      checkpoints: store,
      clock,
      token: 'fuzz-token-0123456789',
      onInternalError: (error) => {
        internal.push(error);
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  store.close();
});

/** Sends raw bytes as one request and returns the status line's code (0 when the server closed without one). */
function raw(bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      answer += d;
    });
    socket.on('error', () => {
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    });
    socket.on('close', () => {
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    });
    socket.on('timeout', () => {
      reject(new Error('no answer'));
    });
    socket.end(bytes);
  });
}

function get(target: string, extra = ''): Buffer {
  return Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`, 'latin1');
}

const CASES: [string, Buffer, number[]][] = [
  ['a huge query value', get(`/api/runs?q=${'a'.repeat(12_000)}`), [400]],
  ['a head larger than Node reads', get(`/api/runs?q=${'a'.repeat(200_000)}`), [431, 0]],
  ['control characters in a query', get('/api/runs?q=%00%01%1b[31m%7f'), [200]],
  ['a state with markup', get('/api/runs?state=%3Cimg%20src=x%3E'), [400]],
  ['bad percent-encoding in a run id', get('/api/runs/%E0%A4%A'), [400]],
  ['bad UTF-8 in a run id', get('/api/runs/%C3%28'), [400]],
  [
    'raw bad UTF-8 bytes in the path',
    Buffer.concat([
      Buffer.from('GET /api/runs/'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]),
    [404, 400],
  ],
  ['a deeply nested-looking query', get(`/api/runs?${'a[b]'.repeat(2000)}=1`), [400]],
  ['a thousand repeated parameters', get(`/api/runs?${'q=1&'.repeat(1000)}`), [400]],
  [
    'an action with a huge body and no token',
    Buffer.from(
      `POST /api/runs/run-1/abandon HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\nConnection: close\r\n\r\n${'['.repeat(1_000_000)}`,
    ),
    [401],
  ],
  ['an unknown method', Buffer.from('BREW /api/runs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), [400, 404]],
  ['a path of a thousand slashes', get(`/${'/'.repeat(1000)}`), [404]],
  ['an absolute-form target to another host', get('http://evil.example/api/runs'), [400]],
  ['a live list with a state of markup', get('/api/stream?state=%3Cscript%3E'), [400]],
  ['a live list with an unknown filter', get('/api/stream?session=x'), [400]],
  ['a live run that does not exist', get('/api/runs/nope/stream'), [404]],
  ['a live run with a huge id', get(`/api/runs/${'a'.repeat(5000)}/stream`), [400]],
  ['a cookie of control characters', get('/api/runs/run-1/abandon', 'Cookie: headway_dashboard=\x01\x02\x1b\r\n'), [400, 404]],
];

describe('hostile requests', () => {
  it.each(CASES)('%s: a 4xx (or a refusal), never a 500', { timeout: 15_000 }, async (_name, bytes, expected) => {
    expect(expected).toContain(await raw(bytes));
    expect(await raw(get('/api/runs'))).toBe(200);
    expect(internal).toEqual([]);
  });
});
