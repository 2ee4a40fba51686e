// What the server sends the page, checked before anything is drawn: a frame that does not match
// is refused with what and where, never drawn half right. zod/mini keeps the check small in the
// bundle; unknown fields are dropped, so a newer server does not break an older page.
import * as z from 'zod/mini';

const action = z.enum(['continue', 'resume', 'abandon', 'cancel']);

const run = z.object({
  id: z.string(),
  runId: z.string(),
  task: z.string(),
  sessionId: z.string(),
  agent: z.string(),
  state: z.string(),
  stateText: z.string(),
  active: z.boolean(),
  iteration: z.number(),
  spentUsd: z.number(),
  /** Calls of a model with no price, which `spentUsd` excludes (absent from a server that does not say). */
  unpricedCalls: z.optional(z.number()),
  inputTokens: z.number(),
  outputTokens: z.number(),
  toolsUsed: z.array(z.string()),
  startedAt: z.number(),
  percent: z.number(),
  etaLowMs: z.optional(z.number()),
  etaHighMs: z.optional(z.number()),
  error: z.optional(z.string()),
  /** What the server allows on this run now; absent from a server that does not say (no buttons then). */
  actions: z.optional(z.array(action)),
});

const tool = z.object({ name: z.string(), args: z.string(), result: z.optional(z.string()) });

const costLine = z.object({
  model: z.string(),
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** `null` when the model has no price: shown as unpriced, never as $0. */
  spentUsd: z.nullable(z.number()),
});

const runFrame = z.object({
  run,
  chain: z.array(z.string()),
  view: z.object({
    steps: z.array(z.object({ iteration: z.number(), text: z.string(), tools: z.array(tool) })),
    omittedSteps: z.number(),
    plan: z.optional(z.object({ total: z.number(), completed: z.number(), inProgress: z.number() })),
    currentStep: z.optional(z.string()),
  }),
  reportHtml: z.optional(z.string()),
  reportError: z.optional(z.string()),
  costByModel: z.optional(z.array(costLine)),
});

/** One run as the list and the run page draw it. */
export type PageRun = z.infer<typeof run>;
/** An action the run page offers as a button. */
export type PageAction = z.infer<typeof action>;
/** A `run` frame: one run's page. */
export type RunFrame = z.infer<typeof runFrame>;
/** One model's share of a run's cost. */
export type CostLine = z.infer<typeof costLine>;

/** The result of reading a frame: its value, or what is wrong with it. */
export type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

function check<T>(schema: z.ZodMiniType<T>, value: unknown, where: string): Read<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.slice(0, 3).map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`);
  return { ok: false, problem: problems.join('; ') };
}

/** Checks one run of a `runs` frame (`where` names it in a problem: `frame.runs.12`). */
export function readRunRecord(value: unknown, where: string): Read<PageRun> {
  return check(run, value, where);
}

/** Reads a `run` frame (one run's page). */
export function readRunFrame(data: string): Read<RunFrame> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  return check(runFrame, value, 'frame');
}
