// What the server sends the page, checked before anything is drawn: a frame that does not match
// is refused with what and where, never drawn half right. zod/mini keeps the check small in the
// bundle; unknown fields are dropped, so a newer server does not break an older page. Each schema
// is checked at compile time against the server's own types (../dashboard-run-types.ts, types
// only, no Node import): a field added on one side and not the other fails typecheck here.
import * as z from 'zod/mini';
import type { DashboardModelCost, DashboardRun, DashboardRunDetail, DashboardRunView } from '../dashboard-run-types.js';

/** A type as plain nested objects (interfaces and intersections flattened), so two spellings of one shape compare equal. */
type Plain<T> = T extends readonly (infer U)[] ? Plain<U>[] : T extends object ? { [K in keyof T]: Plain<T[K]> } : T;
/**
 * `true` when A and B are the same type: each field, its type and whether it is optional
 * (TypeScript's identity check; assignability both ways would miss an optional field on one side).
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the identity check is a generic used once on each side
type Same<A, B> = (<T>() => T extends Plain<A> ? 1 : 2) extends <T>() => T extends Plain<B> ? 1 : 2 ? true : false;
/** `T` with the keys `K` optional. */
type Loose<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/**
 * `schema`, which must read exactly `Server`: a schema whose output differs (a field missing, extra,
 * of another type or optionality) needs a second argument it cannot be given, so typecheck fails.
 */
function reads<Server>() {
  return <S extends z.ZodMiniType>(
    schema: S,
    ..._pageSchemaDiffersFromServerType: Same<z.output<S>, Server> extends true ? [] : [never]
  ): S => schema;
}

/**
 * What the page reads of a run: the server's {@link DashboardRun} without what the page never shows,
 * and with what a server from before it was sent may leave out made optional (no buttons, no
 * unpriced note then).
 */
type PageRunOf = Loose<Omit<DashboardRun, 'parentRunId' | 'taskId' | 'updatedAt'>, 'actions' | 'unpricedCalls'>;
/** What the page reads of a run page: the server's {@link DashboardRunDetail} the same way. */
type RunFrameOf = Loose<Omit<DashboardRunDetail, 'continuations' | 'run' | 'view'>, 'costByModel'> & {
  run: PageRunOf;
  view: Omit<DashboardRunView, 'finishedSteps'>;
};

const action = z.enum(['continue', 'resume', 'abandon', 'cancel']);

const run = reads<PageRunOf>()(
  z.object({
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
    unpricedCalls: z.exactOptional(z.number()),
    inputTokens: z.number(),
    outputTokens: z.number(),
    toolsUsed: z.array(z.string()),
    startedAt: z.number(),
    percent: z.number(),
    etaLowMs: z.exactOptional(z.number()),
    etaHighMs: z.exactOptional(z.number()),
    error: z.exactOptional(z.string()),
    /** What the server allows on this run now; absent from a server that does not say (no buttons then). */
    actions: z.exactOptional(z.array(action)),
  }),
);

const tool = z.object({ name: z.string(), args: z.string(), result: z.exactOptional(z.string()) });

const costLine = reads<DashboardModelCost>()(
  z.object({
    model: z.string(),
    calls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    /** `null` when the model has no price: shown as unpriced, never as $0. */
    spentUsd: z.nullable(z.number()),
  }),
);

const runFrame = reads<RunFrameOf>()(
  z.object({
    run,
    chain: z.array(z.string()),
    view: z.object({
      steps: z.array(z.object({ iteration: z.number(), text: z.string(), tools: z.array(tool) })),
      omittedSteps: z.number(),
      plan: z.exactOptional(z.object({ total: z.number(), completed: z.number(), inProgress: z.number() })),
      currentStep: z.exactOptional(z.string()),
    }),
    reportHtml: z.exactOptional(z.string()),
    reportError: z.exactOptional(z.string()),
    costByModel: z.exactOptional(z.array(costLine)),
  }),
);

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
