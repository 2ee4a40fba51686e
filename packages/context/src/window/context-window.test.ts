import { HeadwayError } from '@headway/protocol';
import type { ChatMessage, ContextAssembly } from '@headway/runtime';
import { describe, expect, it } from 'vitest';
import type { ContextEvent } from '../context-event.js';
import { SUMMARY_HEADER, consolidateMessages } from './consolidate.js';
import { createContextWindow } from './context-window.js';

/** A counter where every character is a token, so counts are easy to read. */
const perChar = { name: 'chars', countText: (t: string) => t.length };

function assembly(conversation: ChatMessage[]): ContextAssembly {
  return {
    runId: 'r',
    sessionId: 's',
    task: 't',
    provider: 'p',
    model: undefined,
    maxIterations: 10,
    signal: new AbortController().signal,
    iteration: 7,
    showProgress: () => () => undefined,
    conversation,
    system: [],
    tools: [],
  };
}

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Find the cheapest vendor.' },
  { role: 'assistant', content: 'I will search first. Then compare.', toolCalls: [{ id: 'c1', name: 'search', args: { q: 'vendors' } }] },
  { role: 'tool', toolCallId: 'c1', name: 'search', content: 'Vendor A 10 USD, Vendor B 12 USD' },
  { role: 'user', content: 'Check before you continue.' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'read', args: { url: 'a' } }] },
  { role: 'tool', toolCallId: 'c2', name: 'read', content: 'A: 10 USD a month' },
  { role: 'user', content: 'Check before you continue.' },
  { role: 'assistant', content: 'Vendor A is cheapest.' },
];

describe('consolidateMessages', () => {
  it('keeps the system prompt and the last 4 messages, and turns the older ones into key facts', () => {
    const done = consolidateMessages(conversation);
    expect(done?.replaced).toBe(4);
    expect(done?.conversation.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant']);
    expect(done?.conversation.slice(2)).toEqual(conversation.slice(5));
    expect(done?.conversation[1]?.content).toBe(
      [
        `${SUMMARY_HEADER} 4 earlier message(s) were consolidated into these key facts:`,
        '- Task: Find the cheapest vendor.',
        '- Decision: I will search first.',
        '- Tool search({"q":"vendors"}) → Vendor A 10 USD, Vendor B 12 USD',
        '- Instruction: Check before you continue.',
      ].join('\n'),
    );
  });

  it('never leaves a tool result without its call: the kept part starts at the assistant message', () => {
    const done = consolidateMessages(conversation.slice(0, 7), { keepLast: 4 });
    // The last 4 would start at a tool result (index 3); its call (index 2) is kept with it.
    expect(done?.replaced).toBe(1);
    expect(done?.conversation.slice(2)).toEqual(conversation.slice(2, 7));
  });

  it('carries an earlier summary over, and returns undefined when nothing is old enough', () => {
    const once = consolidateMessages(conversation);
    const more: ChatMessage[] = [
      ...(once?.conversation ?? []),
      { role: 'user', content: 'And B?' },
      { role: 'assistant', content: 'B costs 12 USD.' },
    ];
    const twice = consolidateMessages(more);
    expect(twice?.facts.slice(0, 4)).toEqual(once?.facts);
    expect(consolidateMessages(conversation.slice(0, 4))).toBeUndefined();
  });
});

describe('createContextWindow', () => {
  const total = (msgs: ChatMessage[]) =>
    msgs.reduce(
      (n, m) =>
        n +
        m.content.length +
        4 +
        (m.role === 'assistant' ? (m.toolCalls ?? []).reduce((k, c) => k + ` ${c.name} ${JSON.stringify(c.args)}`.length, 0) : 0),
      0,
    );

  it('consolidates at 80% or more of the window, never below: 400 of 501 tokens (79.8%) stays, 401 (80.04%) consolidates', () => {
    const atTokens = (n: number) => {
      const a = assembly(conversation);
      return { ...a, system: ['x'.repeat(n - total(conversation))] };
    };
    const window = createContextWindow({ maxTokens: 501, counter: perChar, summaryShare: 0.5 });
    expect(window.tokens(atTokens(400))).toBe(400);
    expect(window.assembleContext?.(atTokens(400))).toBeUndefined();
    expect(window.assembleContext?.(atTokens(401))).toMatchObject({ conversation: expect.any(Array) as unknown });
    // Exactly 80%: 400 of 500 consolidates, 399 does not; a product with rounding noise (0.7 × 1000) keeps its boundary.
    const exact = createContextWindow({ maxTokens: 500, counter: perChar, summaryShare: 0.5 });
    expect(exact.assembleContext?.(atTokens(399))).toBeUndefined();
    expect(exact.assembleContext?.(atTokens(400))).toBeDefined();
    const seventy = createContextWindow({ maxTokens: 1000, threshold: 0.7, counter: perChar, summaryShare: 0.5 });
    expect(seventy.assembleContext?.(atTokens(699))).toBeUndefined();
    expect(seventy.assembleContext?.(atTokens(700))).toBeDefined();
  });

  it('consolidates at 80% of the window, not below, and reports the tokens before and after', () => {
    const long = conversation.map((m) => (m.role === 'tool' ? { ...m, content: `${m.content}${' details'.repeat(100)}` } : m));
    const tokens = total(long);
    const events: ContextEvent[] = [];
    // 80% of maxTokens is one token above the conversation: nothing happens.
    const below = createContextWindow({
      maxTokens: Math.ceil((tokens + 1) / 0.8) + 1,
      counter: perChar,
      summaryShare: 0.5,
      onEvent: (e) => events.push(e),
    });
    expect(below.tokens(assembly(long))).toBe(tokens);
    expect(below.assembleContext?.(assembly(long))).toBeUndefined();
    const at = createContextWindow({
      maxTokens: Math.floor(tokens / 0.8),
      counter: perChar,
      summaryShare: 0.5,
      onEvent: (e) => events.push(e),
    });
    const result = at.assembleContext?.(assembly(long));
    expect(result).toMatchObject({ conversation: expect.any(Array) as unknown });
    expect(events).toEqual([
      {
        type: 'context.consolidated',
        runId: 'r',
        iteration: 7,
        beforeTokens: tokens,
        afterTokens: expect.any(Number) as unknown,
        maxTokens: Math.floor(tokens / 0.8),
        threshold: 0.8,
        replacedMessages: 4,
        facts: 4,
      },
    ]);
    expect((events[0] as { afterTokens: number }).afterTokens).toBeLessThan(tokens);
  });

  it.each([
    [{ maxTokens: 100 }, 'Invalid createContextWindow options: maxTokens: too small: expected number to be >=256'],
    [{ maxTokens: 1000, threshold: 1.5 }, 'Invalid createContextWindow options: threshold: too big: expected number to be <=1'],
    [{ maxTokens: 1000, keepLast: 0 }, 'Invalid createContextWindow options: keepLast: too small: expected number to be >=1'],
    [{ maxTokens: 1000, counter: {} }, 'Invalid createContextWindow options: counter: expected { countText(text) }'],
    [{ maxTokens: 1000, maxToken: 5 }, 'Invalid createContextWindow options: (root): unrecognized key: "maxToken"'],
  ])('refuses %j at construction, naming the field', (options, message) => {
    let error: unknown;
    try {
      createContextWindow(options as never);
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, 'CONTEXT_INVALID_CONFIG')).toBe(true);
    expect((error as Error).message).toBe(message);
  });
});
