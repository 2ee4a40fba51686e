// The dashboard's scripted "model": a deterministic policy that decides each next step from
// the real tool results in the conversation, reports `_progress` that walks through the
// weighted steps, and answers a PROGRESS REPORT request when the run hits a limit.
import type { ChatMessage, CompletionRequest } from '@headway/runtime';
import type { ScriptedStep } from '@headway/runtime/testing';
import { z } from 'zod';

/** The task the scripted model knows how to do. */
export const DEFAULT_TASK = 'Compare the sorting algorithms in the library and recommend one for sorting records by date';

/** The weighted steps of the task (the runtime's `progress.fallbackSteps`). */
export const TASK_STEPS: readonly { name: string; weight: number }[] = [
  { name: 'Search the library', weight: 1 },
  { name: 'Read the documents', weight: 3 },
  { name: 'Compare the algorithms', weight: 2 },
  { name: 'Write the recommendation', weight: 1 },
];

const searchHitsSchema = z.array(z.object({ id: z.string(), title: z.string(), year: z.number() }));

interface Known {
  hits: z.infer<typeof searchHitsSchema> | undefined;
  texts: Map<string, string>;
  stats: string | undefined;
}

/** What the tool results in the conversation tell: search hits, documents read, statistics. */
function known(conversation: readonly ChatMessage[]): Known {
  const calls = new Map<string, { name: string; args: unknown }>();
  const out: Known = { hits: undefined, texts: new Map(), stats: undefined };
  for (const message of conversation) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    if (message.role !== 'tool') continue;
    const call = calls.get(message.toolCallId);
    if (call === undefined || message.content.startsWith('Error:')) continue;
    if (call.name === 'search_library') {
      // Tool output is data: read it through a schema, never trust its shape.
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.content);
      } catch {
        parsed = undefined;
      }
      const hits = searchHitsSchema.safeParse(parsed);
      if (hits.success) out.hits = [...hits.data].sort((a, b) => a.year - b.year);
    } else if (call.name === 'read_document') {
      const id = z.object({ id: z.string() }).safeParse(call.args);
      if (id.success) out.texts.set(id.data.id, message.content);
    } else if (call.name === 'compute_stats') {
      out.stats = message.content;
    }
  }
  return out;
}

function progress(percent: number, message: string): string {
  return `\`\`\`json\n${JSON.stringify({ _progress: { percent, message } })}\n\`\`\``;
}

function asksForReport(conversation: readonly ChatMessage[]): boolean {
  const users = conversation.filter((m) => m.role === 'user');
  return users.slice(1).some((m) => m.content.includes('PROGRESS REPORT'));
}

function bullets(items: readonly string[]): string {
  return items.map((i) => `- ${i}`).join('\n');
}

function report(k: Known): string {
  const done: string[] = [];
  const remaining: string[] = [];
  const findings: string[] = [];
  if (k.hits === undefined) remaining.push('Search the library for sorting algorithms');
  else {
    done.push(`Searched the library: ${k.hits.length} sorting algorithms (${k.hits.map((h) => h.title).join(', ')})`);
    findings.push(`Oldest: ${k.hits[0]?.title ?? '?'} (${k.hits[0]?.year ?? '?'})`);
    const unread = k.hits.filter((h) => !k.texts.has(h.id));
    for (const h of k.hits) if (k.texts.has(h.id)) done.push(`Read ${h.title}`);
    for (const h of unread) remaining.push(`Read ${h.title} (read_document ${h.id})`);
  }
  for (const [id, text] of k.texts) findings.push(`${id}: ${/O\(n log n\)[^,.]*|O\(n\^2\)[^,.]*/.exec(text)?.[0] ?? 'read'}`);
  if (k.stats === undefined) remaining.push('Compare the publication years (compute_stats)');
  remaining.push('Write the recommendation');
  return [
    '## PROGRESS REPORT',
    '### Task',
    DEFAULT_TASK,
    '### Completed Work',
    bullets(done),
    '### Key Findings',
    bullets(findings),
    '### Attempted but Inconclusive',
    '',
    '### Not Started / Remaining',
    bullets(remaining),
    '### Suggested Next Steps',
    bullets(remaining.slice(0, 2)),
  ].join('\n');
}

const statsSchema = z.object({ min: z.number(), max: z.number(), mean: z.number() });

/** One line about the publication years, from compute_stats' output (read through a schema). */
function years(stats: string | undefined): string {
  let value: unknown;
  try {
    value = JSON.parse(stats ?? 'null');
  } catch {
    return '';
  }
  const parsed = statsSchema.safeParse(value);
  return parsed.success ? `Published between ${parsed.data.min} and ${parsed.data.max} (mean ${Math.round(parsed.data.mean)}).` : '';
}

function answer(k: Known): string {
  const stable = [...k.texts].filter(([, t]) => /\bstable\b/.test(t.replace(/not stable/g, ''))).map(([id]) => id);
  return [
    `I read ${k.texts.size} documents about sorting algorithms.`,
    `Stable ones (equal dates keep their order): ${stable.join(', ') || 'none'}.`,
    years(k.stats),
    '',
    'Recommendation: merge sort. Records sorted by date often share a date, so a stable sort keeps them in their earlier order, and merge sort stays O(n log n) in every case; insertion sort is only worth it when the records are already nearly sorted.',
  ].join('\n');
}

/**
 * The scripted model: `(conversation, request) => step`. Each reply waits `delayMs` (the
 * model's "thinking"), so a person can watch the dashboard move.
 */
export function researchModel(delayMs: number): (conversation: readonly ChatMessage[], request: CompletionRequest) => ScriptedStep {
  return (conversation, request) => {
    const k = known(conversation);
    if (asksForReport(conversation)) return { content: report(k), delayMs };
    const can = (name: string): boolean => request.tools.some((t) => t.name === name);
    if (k.hits === undefined && can('search_library')) {
      return {
        content: `First I search the library for sorting algorithms.\n${progress(15, 'Searching the library')}`,
        toolCalls: [{ name: 'search_library', args: { query: 'sort' } }],
        delayMs,
      };
    }
    const unread = (k.hits ?? []).filter((h) => !k.texts.has(h.id));
    if (unread.length > 0 && can('read_document')) {
      const batch = unread.slice(0, 2);
      const percent = k.texts.size === 0 ? 30 : 50;
      return {
        content: `Reading ${batch.map((h) => h.title).join(' and ')}.\n${progress(percent, 'Reading the documents')}`,
        toolCalls: batch.map((h) => ({ name: 'read_document', args: { id: h.id } })),
        delayMs,
      };
    }
    if (k.stats === undefined && k.hits !== undefined && can('compute_stats')) {
      return {
        content: `Now I compare when they were published.\n${progress(75, 'Comparing the algorithms')}`,
        toolCalls: [{ name: 'compute_stats', args: { values: k.hits.map((h) => h.year) } }],
        delayMs,
      };
    }
    return { content: `${answer(k)}\n${progress(95, 'Writing the recommendation')}`, delayMs };
  };
}
