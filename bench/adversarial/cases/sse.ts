// Growth cases for @headway/sse's request handling and framing: the worst inputs known, at
// about n characters. The runner in ../run.ts times each at n = 10 KB, 100 KB and 1 MB.
import { parseProgressEventJson, type ProgressEvent } from '@headway/protocol';
import { createReplayLog, formatProgressFrame, createSseResponse } from '@headway/sse';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

const repeat = (piece: string, n: number): string => piece.repeat(Math.max(1, Math.ceil(n / piece.length))).slice(0, n);
const options = { source: createReplayLog(), heartbeatMs: 0 };

export const cases: AdversarialCase[] = [
  // Node's HTTP parser caps a request line at 16 KB; a fetch-style Request has no cap.
  {
    name: 'createSseResponse: a long run path',
    make: (n) => new Request(`http://127.0.0.1/runs/${repeat('a%2', n)}`),
    run: (input) => createSseResponse(input as Request, options),
  },
  {
    name: 'createSseResponse: a long Last-Event-ID',
    make: (n) => new Request('http://127.0.0.1/runs/r1', { headers: { 'last-event-id': repeat('9', n) } }),
    run: (input) => createSseResponse(input as Request, options),
  },
  {
    name: 'formatProgressFrame + parse back: text of line breaks',
    make: (n): ProgressEvent => ({ type: 'text.delta', runId: 'r', seq: 1, ts: 1, text: repeat('a\r\n\n\u2028', n) }),
    run: (input) => {
      const frame = formatProgressFrame(input as ProgressEvent);
      const data = frame.slice(frame.indexOf('data: ') + 6, frame.lastIndexOf('\n\n'));
      return parseProgressEventJson(data);
    },
  },
];
