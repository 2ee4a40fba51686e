import { createServer } from 'node:http';
import { ManualClock, createProgressHub, type ProgressEvent } from '@headway/protocol';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createSocketIoSink } from './socket-io-sink.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startIo(): Promise<{ io: Server; url: string }> {
  const http = createServer();
  const io = new Server(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        void io.close(() => {
          resolve();
        });
      }),
  );
  return { io, url: `http://127.0.0.1:${address.port}` };
}

async function client(url: string): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], forceNew: true });
  cleanups.push(() => {
    socket.disconnect();
  });
  await new Promise<void>((resolve) => socket.on('connect', resolve));
  return socket;
}

function collect(socket: Socket, until: number): Promise<ProgressEvent[]> {
  const got: ProgressEvent[] = [];
  return new Promise((resolve) => {
    socket.on('agent.progress', (event: ProgressEvent) => {
      got.push(event);
      if (got.length === until) resolve(got);
    });
  });
}

describe('createSocketIoSink', () => {
  it('emits every event as agent.progress to a namespace, in order, as the same objects SSE carries', async () => {
    const { io, url } = await startIo();
    const agents = io.of('/agents');
    const socket = await client(`${url}/agents`);
    const hub = createProgressHub({ runId: 'r', clock: new ManualClock({ start: 7 }) });
    hub.add(createSocketIoSink(agents));
    const received = collect(socket, 3);
    const sent = [
      hub.emit({ type: 'run.started', agentName: 'a' }),
      hub.emit({ type: 'tool.executing', toolName: 'search', args: { q: 'x' } }),
      hub.emit({ type: 'run.finished', durationMs: 3, outcome: 'completed' }),
    ];
    expect(await received).toEqual(sent);
  });

  it('reaches only the room a client joined, per run with the room option', async () => {
    const { io, url } = await startIo();
    io.of('/runs').on('connection', (s) => {
      void s.join(String(s.handshake.query.run));
    });
    const inA = await client(`${url}/runs?run=a`);
    const inB = await client(`${url}/runs?run=b`);
    const sink = createSocketIoSink(io.of('/runs'), { room: (e) => e.runId });
    const gotA = collect(inA, 2);
    const gotB = collect(inB, 1);
    sink({ type: 'progress', runId: 'a', seq: 1, ts: 0, percent: 10 });
    sink({ type: 'progress', runId: 'b', seq: 1, ts: 0, percent: 50 });
    sink({ type: 'progress', runId: 'a', seq: 2, ts: 0, percent: 20 });
    expect((await gotA).map((e) => [e.runId, e.seq])).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    expect((await gotB).map((e) => [e.runId, e.seq])).toEqual([['b', 1]]);
    // A room target from io.to() works the same.
    const toRoom = createSocketIoSink(io.of('/runs').to('b'));
    const again = collect(inB, 1);
    toRoom({ type: 'progress', runId: 'b', seq: 2, ts: 0, percent: 60 });
    expect((await again).at(-1)?.seq).toBe(2);
  });

  it('never throws into the run: a failing target goes to onInternalError with where, runId and the event', () => {
    const errors: unknown[] = [];
    const sink = createSocketIoSink(
      {
        emit: () => {
          throw new Error('adapter down');
        },
      },
      {
        onInternalError: (e, { where, runId, event }) => {
          errors.push([where, runId, event.seq, e]);
          throw new Error('and the handler too');
        },
      },
    );
    expect(() => {
      sink({ type: 'progress', runId: 'r', seq: 1, ts: 0, percent: 1 });
    }).not.toThrow();
    expect(errors).toEqual([['emit', 'r', 1, new Error('adapter down')]]);
  });
});
