import type { Message } from '@ag-ui/client';
import { describe, expect, it } from 'vitest';
import { formatRange, StepList, textView } from './run-view.js';

describe('StepList', () => {
  it('names each step by the progress message the run reported while it was the latest', () => {
    const steps = new StepList();
    steps.message(null);
    steps.started('llm-1');
    steps.message('Reading the project notes');
    steps.finished('llm-1');
    steps.started('llm-2');
    steps.message('Reading the project notes'); // unchanged: not this step's name
    steps.finished('llm-2');
    steps.started('llm-3');
    steps.message('Writing the answer');
    steps.message('Writing the answer, still');
    expect(steps.view()).toEqual([
      { name: 'llm-1', label: 'Reading the project notes', finished: true },
      { name: 'llm-2', label: 'step 2', finished: true },
      { name: 'llm-3', label: 'Writing the answer', finished: false },
    ]);
  });
});

describe('textView', () => {
  const messages: Message[] = [
    { id: 'u', role: 'user', content: 'What is headway?' },
    {
      id: 'a1',
      role: 'assistant',
      content: 'Reading the notes. ',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'read_note', arguments: '{}' } }],
    },
    { id: 't1', role: 'tool', toolCallId: 'c1', content: 'notes' },
    { id: 'a2', role: 'assistant', content: 'headway makes agent runs legible.' },
  ];

  it('keeps the answer apart from the narration once the run ended', () => {
    expect(textView(messages, true)).toEqual({ narration: ['Reading the notes.'], answer: 'headway makes agent runs legible.' });
  });

  it('shows every turn as narration while the run goes on, and when the last turn called tools', () => {
    expect(textView(messages, false)).toEqual({ narration: ['Reading the notes.', 'headway makes agent runs legible.'] });
    expect(textView(messages.slice(0, 3), true)).toEqual({ narration: ['Reading the notes.'] });
  });
});

describe('formatRange', () => {
  it('writes the range in the unit of its high end, as the dashboard does', () => {
    expect(formatRange(300, 2300)).toBe('<1–3 s');
    expect(formatRange(20_000, 45_000)).toBe('20–45 s');
    expect(formatRange(120_000, 300_000)).toBe('2–5 min');
    expect(formatRange(5000, 5000)).toBe('5 s');
  });
});
