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
  // A tool input nested n/6 deep: was a stack overflow that ended `headway convert`.
  // Its 1 MB run is JSON.parse (V8's) of 166,000 nested objects: JSON.parse alone on the same
  // lines takes as long (29.2 ms vs 29.3 ms for push) and grows 14.7× from 100 KB, while
  // JSON.parse of as many objects side by side in one array grows 10.5×. The rest of push
  // reads at most 20 levels of it (boundedValue), so this row sits near the bound because of
  // the engine's parser on deep nesting, not of the converter.
  {
    name: 'cli: EventStream.push — tool input nested deep',
    make: (n) => {
      const depth = Math.floor(n / 6);
      return toolLine(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    },
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
