import { describe, expect, it } from 'vitest';
import { extractPlan } from './plan.js';
import type { ToolCallLogEntry } from './tool-call-log-state.js';

const text = (step: number, t: string): ToolCallLogEntry => ({ kind: 'text', iteration: step, text: t });
const open = (entries: ToolCallLogEntry[]): string[] => (extractPlan(entries)?.steps ?? []).filter((s) => !s.done).map((s) => s.text);

describe('extractPlan', () => {
  it('reads checkboxes, struck-through and marked items', () => {
    const plan = extractPlan([text(1, '- [x] Clone the repo\n- [ ] Run the tests\n- ~~Read the docs~~\n- Fix the bug ✅\n- Open a PR')]);
    expect(plan?.steps).toEqual([
      { number: 1, text: 'Clone the repo', done: true },
      { number: 2, text: 'Run the tests', done: false },
      { number: 3, text: 'Read the docs', done: true },
      { number: 4, text: 'Fix the bug', done: true },
      { number: 5, text: 'Open a PR', done: false },
    ]);
  });

  it('marks steps done from what the model says afterwards', () => {
    const entries = [text(1, 'My plan:\n1. a\n2. b\n3. c\n4. d\n5. e'), text(2, 'Steps 1-2 are done.'), text(3, 'Moving on to step 4.')];
    expect(open(entries)).toEqual(['d', 'e']);
  });

  it('takes the latest plan and ignores a list of findings', () => {
    const entries = [
      text(1, 'Plan:\n1. old a\n2. old b'),
      text(2, 'Revised plan:\n1. new a\n2. new b\n3. new c'),
      text(3, 'I found:\n1. src/a.ts\n2. src/b.ts'),
    ];
    expect(open(entries)).toEqual(['new a', 'new b', 'new c']);
    expect(extractPlan([text(1, 'Results:\n- 42\n- 43')])).toBeUndefined();
  });
});
