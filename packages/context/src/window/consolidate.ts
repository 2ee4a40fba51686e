import type { ChatMessage } from '@headway/runtime';
import { argsText, oneLine } from '../text/words.js';

/** How a consolidation summary message starts: a later consolidation carries its facts over. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation]';

/** Messages the seed keeps intact at the end of the conversation. */
export const KEEP_LAST_MESSAGES = 4;

/** Longest user message kept as a "short instruction" fact. */
const SHORT_INSTRUCTION_CHARS = 300;
const FACT_CHARS = 240;

/** What {@link consolidateMessages} did. */
export interface Consolidation {
  /** The new conversation: system prompt, one summary message, the kept messages. */
  conversation: ChatMessage[];
  /** The key facts in the summary, oldest first. */
  facts: string[];
  /** Messages replaced by the summary. */
  replaced: number;
}

/** Options of {@link consolidateMessages}. */
export interface ConsolidateOptions {
  /** Messages kept intact at the end (default 4; more when the first kept one is a tool result, so a result keeps its call). */
  keepLast?: number;
  /** Keeps the summary within a budget: the task and the most recent facts that fit. Default: all facts. */
  fits?: (summary: string) => boolean;
}

/**
 * "Sleep mode": keeps the system prompt and the last messages intact, extracts the key facts of
 * the older ones (the task, short instructions, decisions, tool calls with their results, the
 * facts of an earlier summary) and replaces them with one summary message. Deterministic; the
 * same conversation gives the same summary. Returns `undefined` when nothing is old enough.
 *
 * @example
 * ```ts
 * const done = consolidateMessages(conversation, { keepLast: 4 });
 * done?.conversation.length; // 1 + 1 + 4
 * ```
 */
export function consolidateMessages(messages: readonly ChatMessage[], options: ConsolidateOptions = {}): Consolidation | undefined {
  const keepLast = options.keepLast ?? KEEP_LAST_MESSAGES;
  const head = messages[0]?.role === 'system' ? 1 : 0;
  let start = Math.max(head, messages.length - keepLast);
  // A tool result without the assistant message that called it is refused by providers.
  while (start > head && messages[start]?.role === 'tool') start -= 1;
  if (start <= head) return undefined;
  const older = messages.slice(head, start);
  const facts = keyFacts(older);
  const fits = options.fits;
  let kept = facts;
  if (fits !== undefined && !fits(render(kept, older.length, 0))) {
    // The task (first fact) stays; then the most recent facts that fit.
    const [first, ...rest] = facts;
    kept = first === undefined ? [] : [first];
    const recent: string[] = [];
    for (let i = rest.length - 1; i >= 0; i--) {
      const candidate = [...kept, rest[i] ?? '', ...recent];
      if (!fits(render(candidate, older.length, facts.length - candidate.length))) break;
      recent.unshift(rest[i] ?? '');
    }
    kept = [...kept, ...recent];
  }
  const summary: ChatMessage = { role: 'user', content: render(kept, older.length, facts.length - kept.length) };
  return { conversation: [...messages.slice(0, head), summary, ...messages.slice(start)], facts: kept, replaced: older.length };
}

function render(facts: readonly string[], replaced: number, omitted: number): string {
  const lines = [`${SUMMARY_HEADER} ${replaced} earlier message(s) were consolidated into these key facts:`];
  for (const f of facts) lines.push(`- ${f}`);
  if (omitted > 0) lines.push(`- (${omitted} older fact(s) left out to stay within the context window)`);
  return lines.join('\n');
}

/** The key facts of a run of messages, oldest first, each once. */
export function keyFacts(messages: readonly ChatMessage[]): string[] {
  const facts: string[] = [];
  const seen = new Set<string>();
  const add = (fact: string): void => {
    if (fact === '' || seen.has(fact)) return;
    seen.add(fact);
    facts.push(fact);
  };
  const calls = new Map<string, string>();
  let taskSeen = false;
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        break;
      case 'user': {
        if (m.content.startsWith(SUMMARY_HEADER)) {
          for (const line of m.content.split('\n').slice(1)) if (line.startsWith('- ') && !line.startsWith('- (')) add(line.slice(2));
          taskSeen = true;
        } else if (!taskSeen) {
          add(`Task: ${oneLine(m.content, 2 * FACT_CHARS)}`);
          taskSeen = true;
        } else if (m.content.length <= SHORT_INSTRUCTION_CHARS) {
          add(`Instruction: ${oneLine(m.content, FACT_CHARS)}`);
        }
        break;
      }
      case 'assistant': {
        for (const call of m.toolCalls ?? []) calls.set(call.id, `${call.name}(${oneLine(argsText(call.args), 80)})`);
        const text = m.content.trim();
        if (text !== '') add(`Decision: ${oneLine(firstSentence(text), FACT_CHARS)}`);
        break;
      }
      case 'tool':
        add(`Tool ${calls.get(m.toolCallId) ?? m.name} → ${oneLine(m.content, FACT_CHARS)}`);
        break;
    }
  }
  return facts;
}

function firstSentence(text: string): string {
  const end = text.search(/[.!?](?:\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
