import { planItemsSchema, type PlanItem } from '@headway/protocol';
import { z } from 'zod';

/** Longest JSON text of a call's arguments kept in the log. */
export const ARGS_MAX_CHARS = 200;
/** Longest result brief kept per call. */
export const BRIEF_MAX_CHARS = 500;
/** Longest piece of model text kept per entry. */
export const TEXT_MAX_CHARS = 1000;
/** Longest tool name kept (names come from tool definitions, but a bound is a bound). */
export const NAME_MAX_CHARS = 100;
/** Distinct tool names counted one by one in the summary of the middle; the rest are pooled. */
export const SUMMARY_MAX_TOOLS = 64;
/** Most recent failed calls of the middle kept as examples. */
export const SUMMARY_MAX_FAILURES = 10;

/** One tool call as the log keeps it. */
export interface ToolCallEntry {
  kind: 'tool';
  /** The agent loop's iteration the call was made in. */
  iteration: number;
  name: string;
  /** JSON of the redacted arguments, cut to 200 characters (`''` when there were none). */
  args: string;
  /** The first 500 characters of the result as text (strings as they are, Errors their message, other values JSON). */
  resultBrief: string;
  ok: boolean;
  durationMs: number;
}

/** Text the model wrote between tool calls, cut to 1000 characters. */
export interface TextEntry {
  kind: 'text';
  /** The agent loop's iteration the text was written in. */
  iteration: number;
  text: string;
}

/** One entry of a {@link ToolCallLogState}: a tool call or a piece of model text. */
export type ToolCallLogEntry = ToolCallEntry | TextEntry;

/** Calls and failures of one tool inside the summarised middle of a long log. */
export interface ToolTally {
  name: string;
  calls: number;
  failures: number;
}

/**
 * What the log dropped between its first and its most recent entries: counts, not content,
 * so its size does not grow with the run.
 */
export interface OmittedSummary {
  entries: number;
  toolCalls: number;
  texts: number;
  /** Iteration of the first summarised entry. */
  firstIteration: number;
  /** Iteration of the last summarised entry. */
  lastIteration: number;
  /** Per tool, in order of first appearance; at most 64, the rest pooled in `otherTools`. */
  tools: ToolTally[];
  otherTools?: { calls: number; failures: number };
  /** The most recent failed calls among the omitted ones (at most 10), oldest first. */
  failureSamples: ToolCallEntry[];
}

/**
 * Plain-JSON form of a {@link ToolCallLog}, as checkpoints carry it. State saved before the
 * rename (entries with `step`, a summary with `firstStep`/`lastStep`) still validates and is
 * read as `iteration`, `firstIteration`, `lastIteration`.
 */
export interface ToolCallLogState {
  version: 1;
  maxEntries: number;
  keepFirst: number;
  redact?: { paths?: string[]; censor?: string; secretKeys?: boolean };
  toolCallCount: number;
  textCount: number;
  /** The first entries of the run, at most `keepFirst`. */
  head: ToolCallLogEntry[];
  /** The most recent entries, oldest first, at most `maxEntries - keepFirst`. */
  recent: ToolCallLogEntry[];
  omitted?: OmittedSummary;
  /** The agent's latest plan (from its `update_plan` tool), when it kept one. */
  plan?: PlanItem[];
}

const count = z.number().int().nonnegative();
const iteration = z.number().int().nonnegative();

/** A required field that saved state of the previous minor may still carry under its old name. */
function requireOneOf(value: Record<string, unknown>, name: string, legacy: string): z.core.$ZodRawIssue | undefined {
  if (value[name] !== undefined || value[legacy] !== undefined) return undefined;
  return { code: 'custom', path: [name], message: 'Invalid input: expected number, received undefined', input: value };
}

// `step` is the name saved state had for `iteration` before the rename; read it, never write it.
const toolEntryShape = z
  .strictObject({
    kind: z.literal('tool'),
    iteration: iteration.exactOptional(),
    step: iteration.exactOptional(),
    name: z.string().max(NAME_MAX_CHARS),
    args: z.string().max(ARGS_MAX_CHARS),
    resultBrief: z.string().max(BRIEF_MAX_CHARS),
    ok: z.boolean(),
    durationMs: z.number().nonnegative(),
  })
  .check((ctx) => {
    const issue = requireOneOf(ctx.value, 'iteration', 'step');
    if (issue !== undefined) ctx.issues.push(issue);
  })
  .transform((e): ToolCallEntry => ({
    kind: e.kind,
    iteration: e.iteration ?? e.step ?? 0,
    name: e.name,
    args: e.args,
    resultBrief: e.resultBrief,
    ok: e.ok,
    durationMs: e.durationMs,
  }));
const toolEntrySchema: z.ZodType<ToolCallEntry> = toolEntryShape;

const textEntryShape = z
  .strictObject({
    kind: z.literal('text'),
    iteration: iteration.exactOptional(),
    step: iteration.exactOptional(),
    text: z.string().max(TEXT_MAX_CHARS),
  })
  .check((ctx) => {
    const issue = requireOneOf(ctx.value, 'iteration', 'step');
    if (issue !== undefined) ctx.issues.push(issue);
  })
  .transform((e): TextEntry => ({ kind: e.kind, iteration: e.iteration ?? e.step ?? 0, text: e.text }));

/**
 * One entry of a saved log (checked one by one first, so a huge list of bad entries costs no
 * more than its length). Accepts the pre-rename `step` for `iteration`.
 */
export const entrySchema: z.ZodType<ToolCallLogEntry> = z.discriminatedUnion('kind', [toolEntryShape, textEntryShape]);

const omittedSchema: z.ZodType<OmittedSummary> = z
  .strictObject({
    entries: count,
    toolCalls: count,
    texts: count,
    firstIteration: iteration.exactOptional(),
    lastIteration: iteration.exactOptional(),
    // Pre-rename names of firstIteration and lastIteration.
    firstStep: iteration.exactOptional(),
    lastStep: iteration.exactOptional(),
    tools: z.array(z.strictObject({ name: z.string().max(NAME_MAX_CHARS), calls: count, failures: count })).max(SUMMARY_MAX_TOOLS),
    otherTools: z.strictObject({ calls: count, failures: count }).exactOptional(),
    failureSamples: z.array(toolEntrySchema).max(SUMMARY_MAX_FAILURES),
  })
  .check((ctx) => {
    for (const issue of [requireOneOf(ctx.value, 'firstIteration', 'firstStep'), requireOneOf(ctx.value, 'lastIteration', 'lastStep')])
      if (issue !== undefined) ctx.issues.push(issue);
  })
  .transform((o): OmittedSummary => {
    const summary: OmittedSummary = {
      entries: o.entries,
      toolCalls: o.toolCalls,
      texts: o.texts,
      firstIteration: o.firstIteration ?? o.firstStep ?? 0,
      lastIteration: o.lastIteration ?? o.lastStep ?? 0,
      tools: o.tools,
      failureSamples: o.failureSamples,
    };
    if (o.otherTools !== undefined) summary.otherTools = o.otherTools;
    return summary;
  });

/**
 * zod schema of {@link ToolCallLogState}. Besides the shape it checks the bounds (entry
 * sizes, `head`/`recent` lengths), so a restored log keeps the memory bound a live one has.
 */
export const toolCallLogStateSchema: z.ZodType<ToolCallLogState> = z
  .strictObject({
    version: z.literal(1),
    maxEntries: z.number().int().min(2),
    keepFirst: z.number().int().min(1),
    redact: z
      .strictObject({
        paths: z.array(z.string()).exactOptional(),
        censor: z.string().exactOptional(),
        secretKeys: z.boolean().exactOptional(),
      })
      .exactOptional(),
    toolCallCount: count,
    textCount: count,
    head: z.array(entrySchema),
    recent: z.array(entrySchema),
    omitted: omittedSchema.exactOptional(),
    plan: planItemsSchema.exactOptional(),
  })
  .superRefine((state, ctx) => {
    if (state.keepFirst >= state.maxEntries) {
      ctx.addIssue({ code: 'custom', path: ['keepFirst'], message: `must be less than maxEntries (${state.maxEntries})` });
    }
    if (state.head.length > state.keepFirst) {
      ctx.addIssue({
        code: 'custom',
        path: ['head'],
        message: `has ${state.head.length} entries, more than keepFirst (${state.keepFirst})`,
      });
    }
    const room = state.maxEntries - state.keepFirst;
    if (state.recent.length > room) {
      ctx.addIssue({
        code: 'custom',
        path: ['recent'],
        message: `has ${state.recent.length} entries, more than maxEntries - keepFirst (${room})`,
      });
    }
    if (state.recent.length > 0 && state.head.length < state.keepFirst) {
      ctx.addIssue({ code: 'custom', path: ['head'], message: 'must be full before recent entries are kept' });
    }
    if (state.omitted !== undefined && state.omitted.entries !== state.omitted.toolCalls + state.omitted.texts) {
      ctx.addIssue({ code: 'custom', path: ['omitted', 'entries'], message: 'must equal omitted.toolCalls + omitted.texts' });
    }
    const kept = [...state.head, ...state.recent];
    const tools = kept.filter((e) => e.kind === 'tool').length + (state.omitted?.toolCalls ?? 0);
    if (tools !== state.toolCallCount) {
      ctx.addIssue({ code: 'custom', path: ['toolCallCount'], message: `is ${state.toolCallCount} but the log holds ${tools} tool calls` });
    }
    const texts = kept.length - kept.filter((e) => e.kind === 'tool').length + (state.omitted?.texts ?? 0);
    if (texts !== state.textCount) {
      ctx.addIssue({ code: 'custom', path: ['textCount'], message: `is ${state.textCount} but the log holds ${texts} texts` });
    }
  });
