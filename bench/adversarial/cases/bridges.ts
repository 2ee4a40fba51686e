// Growth cases for the bridges' hostile inputs (issue 31): an AG-UI request body nested as deep
// as its size allows, and a tool result preview (redacted before it is cut) of secret-shaped
// text. The runner in ../run.ts times each at n = 10 KB, 100 KB and 1 MB.
import { parseRunAgentInput } from '@headway/ag-ui';
import { toolResultPreview } from '@headway/protocol';

/** One growth case (the runner's shape, declared here so this file stands alone). */
interface AdversarialCase {
  name: string;
  /** The worst known input of about n bytes. */
  make(n: number): unknown;
  run(input: unknown): unknown;
}

const repeat = (piece: string, n: number): string => piece.repeat(Math.max(1, Math.ceil(n / piece.length))).slice(0, n);

export const cases: AdversarialCase[] = [
  {
    name: 'parseRunAgentInput: state nested n/6 deep (refused with 400 before anything is kept)',
    make: (n) => {
      const depth = Math.max(1, Math.floor(n / 6));
      return JSON.parse(`{"threadId":"t","runId":"r","messages":[],"state":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`) as unknown;
    },
    run: (input) => {
      try {
        return parseRunAgentInput(input);
      } catch (error) {
        return error;
      }
    },
  },
  {
    name: 'toolResultPreview: a result of NAME=value secrets and key prefixes',
    make: (n) => repeat('DB_PASSWORD=hunter2 OPENAI_API_KEY=sk-proj-abcdefghijklmnop sk- ', n),
    run: (input) => toolResultPreview(input, 100),
  },
];
