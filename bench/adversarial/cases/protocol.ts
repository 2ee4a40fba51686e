// Growth cases for @headway/protocol's parsers and redactors: the worst inputs known for each
// (the ones that were quadratic before), at about n characters. The runner in ../run.ts times
// each at n = 10 KB, 100 KB and 1 MB and prints the growth per 10x input.
import { parseProgressEvent, parseProgressEventJson, redact, redactString, safeStringify, toolResultPreview } from '@headway/protocol';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

const repeat = (piece: string, n: number): string => piece.repeat(Math.max(1, Math.ceil(n / piece.length))).slice(0, n);
const text = (input: unknown): string => input as string;

export const cases: AdversarialCase[] = [
  // URL credentials: every position started a scheme scan to the end (11 s at 80 KB before).
  { name: 'redactString: letters', make: (n) => repeat('a', n), run: (input) => redactString(text(input)) },
  { name: 'redactString: one scheme run then ://', make: (n) => `${repeat('a', n - 3)}://`, run: (input) => redactString(text(input)) },
  { name: 'redactString: eyJ- repeated (JWT)', make: (n) => repeat('eyJ-', n), run: (input) => redactString(text(input)) },
  { name: 'redactString: password=" repeated', make: (n) => repeat('password="', n), run: (input) => redactString(text(input)) },
  { name: 'redactString: DB_PASSWORD repeated', make: (n) => repeat('DB_PASSWORD', n), run: (input) => redactString(text(input)) },
  { name: 'redactString: "token :" repeated', make: (n) => repeat('token :', n), run: (input) => redactString(text(input)) },
  // Made flat (a JSON round trip), as text from a parsed event is: this input is so quick to scan
  // that copying a rope of it into one string (what V8 does at the first read) was most of the
  // 10 KB and 100 KB times, and read as 14–15× growth between them.
  {
    name: 'redactString: PEM headers, no end',
    make: (n) => JSON.parse(JSON.stringify(repeat('-----BEGIN RSA PRIVATE KEY-----\n', n))) as string,
    run: (input) => redactString(text(input)),
  },
  { name: 'redactString: Bearer then spaces', make: (n) => `Bearer${repeat(' ', n - 7)}x`, run: (input) => redactString(text(input)) },
  {
    name: 'redact: object of secret-ish strings',
    make: (n) => ({
      args: Array.from({ length: Math.ceil(n / 1000) }, (_, i) => ({ [`DB_PASSWORD_${String(i)}`]: 'x', note: repeat('key a', 990) })),
    }),
    run: (input) => redact(input),
  },
  // A million problems in one line: 7.4 s and a 67 MB message before.
  {
    name: 'parseProgressEventJson: report of numbers',
    make: (n) =>
      JSON.stringify({
        type: 'report.generated',
        runId: 'r',
        seq: 1,
        ts: 1,
        report: { completedWork: new Array<number>(Math.ceil(n / 2)).fill(1) },
      }),
    run: (input) => {
      try {
        return parseProgressEventJson(text(input));
      } catch (error) {
        return (error as Error).message.length;
      }
    },
  },
  {
    name: 'parseProgressEventJson: valid event, big args',
    make: (n) =>
      JSON.stringify({
        type: 'tool.executing',
        runId: 'r',
        seq: 1,
        ts: 1,
        toolName: 't',
        args: Array.from({ length: Math.ceil(n / 20) }, () => ({ a: [1, 'b'] })),
      }),
    run: (input) => parseProgressEventJson(text(input)),
  },
  {
    name: 'parseProgressEvent: huge unknown type',
    make: (n) => ({ type: repeat('x', n), runId: 'r', seq: 1, ts: 1 }),
    run: (input) => {
      try {
        return parseProgressEvent(input);
      } catch (error) {
        return (error as Error).message.length;
      }
    },
  },
  { name: 'toolResultPreview: whitespace runs', make: (n) => repeat('a \t\n ', n), run: (input) => toolResultPreview(input) },
  {
    name: 'safeStringify: wide array',
    make: (n) => new Array<string>(Math.ceil(n / 6)).fill('ab"\n'),
    run: (input) => safeStringify(input),
  },
];
