// Requests as an attacker would send them, on a raw TCP socket to a real server: every one
// gets an HTTP answer and the server keeps serving.
import { connect } from 'node:net';
import { HOSTILE_RUN_PARAMETERS, hugeStringArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { finished } from './events.test-util.js';
import { get, listen, type TestServer } from './http.test-util.js';
import { createReplayLog } from './replay-log.js';
import { createSseHandler } from './sse-handler.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serveFinishedRun(): Promise<TestServer> {
  const log = createReplayLog();
  log.append(finished('run-1', 1));
  const server = await listen(createSseHandler({ source: log, heartbeatMs: 0 }));
  servers.push(server);
  return server;
}

/** Sends `head` as it is (with `Connection: close`) and resolves with everything the server writes until it closes. */
function raw(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => {
      resolve(text);
    });
    socket.on('close', () => {
      resolve(text);
    });
    socket.on('error', reject);
    socket.write(head);
  });
}

describe('createSseHandler on hostile requests', () => {
  it('answers a request target that is no URL with 400, and keeps serving', async () => {
    const { url } = await serveFinishedRun();
    const answer = await raw(url, 'GET http://[/runs/run-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('{"code":"SSE_BAD_REQUEST","message":"The request target is not a valid URL"}');
    const next = await get(`${url}/runs/run-1`);
    expect(next.status).toBe(200);
    expect(next.body).toContain('event: progress');
  });

  it(
    'answers any request target with an HTTP status line',
    async () => {
      const { url } = await serveFinishedRun();
      const target = fc.oneof(
        fc.constantFrom('http://[/runs/run-1', '//', 'http://', '/%zz', '/runs/%E0%A4%A', '*', 'http://a:b@[::1/x', '/?runId=%', 'a:b'),
        fc.string({ unit: fc.constantFrom(..."/?#%[]:@!$&'()*+,;=abc-._~19".split('')), minLength: 1, maxLength: 60 }),
        hugeStringArb({ maxLength: 8000, pieces: ['/', 'a', '%', '[', ':', '?runId=', '%zz'] }).filter((s) => s.length > 0),
      );
      await fc.assert(
        fc.asyncProperty(target, async (t) => {
          const answer = await raw(url, `GET ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
          expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
        }),
        { ...HOSTILE_RUN_PARAMETERS, numRuns: 60 },
      );
      expect((await get(`${url}/runs/run-1`)).status).toBe(200);
    },
    HOSTILE_RUN_PARAMETERS.interruptAfterTimeLimit + 5000,
  );

  it('survives an onDisconnect and a runId that throw', async () => {
    const log = createReplayLog();
    log.append(finished('run-1', 1));
    const server = await listen(
      createSseHandler({
        source: log,
        heartbeatMs: 0,
        runId: (req) => {
          if (req.url?.includes('boom') === true) throw new Error('runId throws');
          return 'run-1';
        },
        onDisconnect: () => {
          throw new Error('onDisconnect throws');
        },
      }),
    );
    servers.push(server);
    const failed = await get(`${server.url}/boom`);
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toEqual({ code: 'SSE_RUN_ID_FAILED', message: 'The run could not be named from the request' });
    expect((await get(`${server.url}/runs/run-1`)).status).toBe(200);
    expect((await get(`${server.url}/runs/run-1`)).status).toBe(200);
  });
});
