import type { ChatMessage, Clock, ContextPart, ToolSpec } from '@headway/runtime';
import { z } from 'zod';
import { analyseAttention, type AttentionResult } from './attention/attention.js';
import type { ContextEvent } from './context-event.js';
import { MemorySynthesizer, type MemoryFragment, type MemorySynthesizerOptions } from './memory/memory-synthesizer.js';
import type { Learnings } from './memory/learnings.js';
import { parseOptions } from './parse-options.js';
import type { Playbook } from './playbook/playbook.js';
import { RateLimiter, createRateLimiterPart, type RateLimiterOptions } from './rate-limit/rate-limiter.js';
import { estimateTokenCounter, type TokenCounter } from './tokens/token-counter.js';
import { createContextWindow, type ContextWindowOptions } from './window/context-window.js';
import { SUMMARY_HEADER } from './window/consolidate.js';

/** Options of {@link createContextPipeline}; every subsystem is optional. */
export interface ContextPipelineOptions {
  /** The model's context window: consolidation at 80% of it. Absent: no window check. */
  window?: Omit<ContextWindowOptions, 'counter' | 'onEvent' | 'onSummary'>;
  /** Per-provider requests and tokens per minute (a `RateLimiter`, or its options). Absent: no limits. */
  rateLimits?: RateLimiter | RateLimiterOptions;
  /** Urgency, topics, focus and tool priorities at the start of each run (default on). */
  attention?: boolean;
  /** Proven patterns before a run, recorded after a successful one; history for the estimator. */
  playbook?: Playbook;
  /** What later runs should know (the synthesizer's highest-weighted source). */
  learnings?: Learnings;
  /** The memory block's weights and budget (default 0.7 / 0.6 / 0.5 / 0.4 within 4,500 tokens), or `false` for none. */
  memory?: MemorySynthesizer | MemorySynthesizerOptions | false;
  /** Counts tokens everywhere (default the estimate; `createTiktokenCounter()` from `@headway/context/tiktoken` for OpenAI). */
  counter?: TokenCounter;
  /** Consolidations and rate-limit waits. Its errors are ignored. */
  onEvent?: (event: ContextEvent) => void;
  /** Time for rate-limit waits (default the system clock; give the runtime's). */
  clock?: Clock;
}

interface RunNotes {
  attention?: AttentionResult;
  favoured?: { tools: readonly ToolSpec[]; names: string[] };
  hints: string[];
  learnings: string[];
}

const object = z.custom<object>((v) => typeof v === 'object' && v !== null, 'expected an object');
/** The pipeline's own options: known keys and their kinds; each subsystem checks its own fields. */
const schema = z.strictObject({
  window: object.optional(),
  rateLimits: object.optional(),
  attention: z.boolean().optional(),
  // By shape, not instanceof: two copies of this package in one program must still work together.
  playbook: z.custom((v) => hasMethods(v, ['record', 'getRelevant', 'stats']), 'expected a Playbook').optional(),
  learnings: z.custom((v) => hasMethods(v, ['all']), 'expected a Learnings').optional(),
  memory: z.union([z.literal(false), object]).optional(),
  counter: z
    .custom(
      (v) => typeof v === 'object' && v !== null && typeof (v as TokenCounter).countText === 'function',
      'expected { countText(text) }',
    )
    .optional(),
  onEvent: z.custom((v) => typeof v === 'function', 'expected a function').optional(),
  clock: object.optional(),
});

function hasMethods(value: unknown, names: readonly string[]): boolean {
  return typeof value === 'object' && value !== null && names.every((n) => typeof (value as Record<string, unknown>)[n] === 'function');
}

/** Runs and sessions remembered at once; the oldest is forgotten past it. */
const REMEMBERED = 1000;
const SUMMARY_FACTS_KEPT = 200;

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}

/**
 * The seed runtime's context subsystems as context parts for `AgentRuntime`'s `deps.context`, in
 * the order they act: attention, playbook, memory synthesizer, context window, rate limiter.
 * Each is its own part: one that throws is reported once and left out, the others go on.
 *
 * @throws {ContextError} `CONTEXT_INVALID_CONFIG` naming the bad field of a subsystem's options.
 * @example
 * ```ts
 * const context = createContextPipeline({ window: { maxTokens: 128_000 }, playbook: new Playbook() });
 * const runtime = new AgentRuntime({ provider: 'openai' }, { provider, tools, context });
 * ```
 */
export function createContextPipeline(options: ContextPipelineOptions = {}): ContextPart[] {
  parseOptions('createContextPipeline', schema, options);
  const counter = options.counter ?? estimateTokenCounter;
  const notes = new Map<string, RunNotes>();
  const focus = new Map<string, AttentionResult>();
  const summaries = new Map<string, string[]>();
  const note = (runId: string): RunNotes => {
    let n = notes.get(runId);
    if (n === undefined) {
      n = { hints: [], learnings: [] };
      remember(notes, runId, n);
    }
    return n;
  };
  const parts: ContextPart[] = [];

  if (options.attention !== false) {
    parts.push({
      name: 'attention',
      beforeRun(run) {
        const result = analyseAttention(run.task, { previous: focus.get(run.sessionId) });
        note(run.runId).attention = result;
        remember(focus, run.sessionId, result);
        return undefined;
      },
      assembleContext(a) {
        const n = note(a.runId);
        const attention = n.attention;
        if (attention === undefined) return undefined;
        if (n.favoured?.tools !== a.tools) {
          const names = analyseAttention(a.task, { tools: a.tools }).favouredTools;
          n.favoured = { tools: a.tools, names };
        }
        const names = n.favoured.names;
        const lines: string[] = [];
        if (attention.urgency === 'high') lines.push('The user marked this as urgent: act on it at once, with the most relevant tool.');
        if (attention.focus.continued && attention.focus.topic !== undefined)
          lines.push(`The user is still on "${attention.focus.topic}" (turn ${attention.focus.turns} on it).`);
        if (names.length > 0) lines.push(`Tools likely to help: ${names.slice(0, 5).join(', ')}.`);
        const favoured =
          names.length === 0
            ? undefined
            : [...names.flatMap((name) => a.tools.filter((t) => t.name === name)), ...a.tools.filter((t) => !names.includes(t.name))];
        return {
          ...(lines.length === 0 ? {} : { system: `Attention: ${lines.join(' ')}` }),
          ...(favoured === undefined ? {} : { tools: favoured }),
        };
      },
    });
  }

  const playbook = options.playbook;
  if (playbook !== undefined) {
    parts.push({
      name: 'playbook',
      async beforeRun(run) {
        const [stats, relevant] = await Promise.all([playbook.stats(run.task), playbook.getRelevant(run.task)]);
        note(run.runId).hints = relevant.map((p) => `${p.promptHint} (${p.successes} success${p.successes === 1 ? '' : 'es'})`);
        return stats === undefined ? undefined : { history: stats.history };
      },
      async afterRun(outcome) {
        await playbook.record({
          task: outcome.task,
          status: outcome.status,
          toolCalls: outcome.toolCalls,
          iterations: outcome.iterations,
          durationMs: outcome.durationMs,
        });
      },
    });
  }

  const learnings = options.learnings;
  const memoryOption = options.memory;
  if (memoryOption !== false) {
    const synthesizer = memoryOption instanceof MemorySynthesizer ? memoryOption : new MemorySynthesizer({ counter, ...memoryOption });
    const keepLast = options.window?.keepLast ?? 4;
    parts.push({
      name: 'memory',
      async beforeRun(run) {
        if (learnings !== undefined) note(run.runId).learnings = (await learnings.all()).map((l) => l.text);
        return undefined;
      },
      assembleContext(a) {
        const n = note(a.runId);
        const fragments: MemoryFragment[] = [
          ...n.learnings.map((text) => ({ source: 'learnings' as const, text })),
          ...n.hints.map((text) => ({ source: 'playbook' as const, text })),
          ...conversationFragments(a.conversation, keepLast),
          ...(summaries.get(a.sessionId) ?? []).map((text) => ({ source: 'summaries' as const, text })),
        ];
        if (fragments.length === 0) return undefined;
        const memory = synthesizer.synthesize(a.task, n.attention?.topics ?? [], fragments);
        return memory.block === '' ? undefined : { system: memory.block };
      },
    });
  }

  if (options.window !== undefined) {
    parts.push(
      createContextWindow({
        ...options.window,
        counter,
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        onSummary: (facts, sessionId) => {
          const kept = summaries.get(sessionId) ?? [];
          for (const f of facts) if (!kept.includes(f)) kept.push(f);
          remember(summaries, sessionId, kept.slice(-SUMMARY_FACTS_KEPT));
        },
      }),
    );
  }

  if (options.rateLimits !== undefined) {
    const limiter =
      options.rateLimits instanceof RateLimiter
        ? options.rateLimits
        : new RateLimiter({ ...options.rateLimits, ...(options.clock === undefined ? {} : { clock: options.clock }) });
    parts.push(
      createRateLimiterPart(limiter, {
        counter,
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      }),
    );
  }

  parts.push({
    name: 'context-notes',
    afterRun(outcome) {
      notes.delete(outcome.runId);
    },
  });
  return parts;
}

/** Text of the conversation older than the last messages (which the model reads in full anyway). */
function conversationFragments(conversation: readonly ChatMessage[], keepLast: number): MemoryFragment[] {
  const out: MemoryFragment[] = [];
  const end = Math.max(0, conversation.length - keepLast);
  for (let i = 1; i < end; i++) {
    const m = conversation[i];
    if (m === undefined || m.role === 'system' || m.content === '' || m.content.startsWith(SUMMARY_HEADER)) continue;
    out.push({ source: 'conversation', text: m.role === 'tool' ? `${m.name}: ${m.content}` : m.content });
  }
  return out;
}
