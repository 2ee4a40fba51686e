// Growth cases for `headway convert`/`watch`'s line reader (@headway/cli's EventStream: parse,
// convert, bound the tool input, redact), at about n characters each.
import { EventStream } from '@headway/cli';
import type { AdversarialCase } from '../case.js';

const repeat = (piece: string, n: number): string => piece.repeat(Math.max(1, Math.ceil(n / piece.length))).slice(0, n);
const text = (input: unknown): string => input as string;

/** One Claude Code assistant line whose tool input is `input` (JSON text). */
const toolLine = (input: string): string =>
  `{"type":"assistant","session_id":"s","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":${input}}]}}`;

const convertLine = (input: unknown): unknown => new EventStream({ from: 'claude-code', timing: 'stream' }).push(text(input));

export const cases: AdversarialCase[] = [
  // A tool input nested n/6 deep: was a stack overflow that ended `headway convert`, then V8's
  // JSON.parse building 166,000 nested objects (1 MB), which grew ~15× from 100 KB. Now its
  // depth is counted before parsing and the line is refused at its level 101 (`MAX_LINE_DEPTH` + 1):
  // the cost no longer depends on the size. The line is made flat (a JSON round trip) as a line
  // read from a file is: `repeat` and `+` build a rope, which V8 would copy into one string inside
  // the timing (at 1 MB a large-object allocation), and that copy is all a refusal would measure.
  {
    name: 'cli: EventStream.push — tool input nested deep',
    make: (n) => {
      const depth = Math.floor(n / 6);
      return JSON.parse(JSON.stringify(toolLine(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`))) as string;
    },
    run: convertLine,
  },
  // The depth count's own worst case: a string of escaped quotes and backslashes, where every
  // quote it finds has a run of backslashes before it to count.
  {
    name: 'cli: EventStream.push — tool input of escaped quotes and backslashes',
    make: (n) => toolLine(JSON.stringify({ command: repeat('\\"\\\\"[{', Math.floor(n / 2)) })),
    run: convertLine,
  },
  {
    name: 'cli: EventStream.push — tool input of secret-ish text',
    make: (n) => toolLine(JSON.stringify({ command: repeat('DB_PASSWORD=x ', n) })),
    run: convertLine,
  },
  {
    name: 'cli: EventStream.push — tool input of many keys',
    make: (n) => toolLine(JSON.stringify(Object.fromEntries(Array.from({ length: Math.ceil(n / 12) }, (_, i) => [`k${String(i)}`, 1])))),
    run: convertLine,
  },
];
