import { progressTrackerStateSchema } from '@headway/estimator';
import { redact } from '@headway/protocol';
import type { Checkpoint } from '@headway/runtime';
import { z } from 'zod';
import type { DashboardRunView, DashboardStep, DashboardToolCall } from './dashboard-run-types.js';

/** Longest text of one step, tool argument or tool result sent to the page; the rest is cut with a note. */
export const MAX_VIEW_TEXT = 4000;

/** Most steps sent to the page: the newest are kept (a run page is not an archive). */
export const MAX_VIEW_STEPS = 200;

const toolCall = z.object({ id: z.string(), name: z.string(), args: z.unknown() });
const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCall).optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
]);

/** One message as the schema reads it; `undefined` for one that does not validate or fights back (a throwing getter, a revoked proxy). */
function safeMessage(raw: unknown): z.infer<typeof message> | undefined {
  try {
    const parsed = message.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function cut(text: string): string {
  return text.length > MAX_VIEW_TEXT ? `${text.slice(0, MAX_VIEW_TEXT)}… (cut: ${String(text.length)} characters)` : text;
}

function jsonText(value: unknown): string {
  try {
    // JSON.stringify gives undefined for undefined, a function or a symbol.
    const text: unknown = JSON.stringify(value);
    return cut(typeof text === 'string' ? text : 'undefined');
  } catch {
    // A value JSON cannot write (a cycle, a BigInt) still shows that there was one.
    return '(not JSON)';
  }
}

/**
 * A run's steps (one per model answer: its text and the tools it called, with their results),
 * plan and estimator steps, rebuilt from what its checkpoint keeps. A message that does not
 * validate is skipped, so one odd row cannot hide the rest.
 *
 * @example
 * ```ts
 * const view = dashboardRunView(await store.load('cp-1'));
 * console.log(view.steps.map((step) => step.tools.map((t) => t.name)));
 * ```
 */
export function dashboardRunView(checkpoint: Pick<Checkpoint, 'messages' | 'state'> | undefined): DashboardRunView {
  const steps: DashboardStep[] = [];
  const byCallId = new Map<string, DashboardToolCall>();
  const messages: readonly unknown[] = Array.isArray(checkpoint?.messages) ? checkpoint.messages : [];
  for (const raw of messages) {
    const parsed = safeMessage(raw);
    if (parsed === undefined) continue;
    const m = parsed;
    if (m.role === 'assistant') {
      const tools = (m.toolCalls ?? []).map((call) => {
        const tool: DashboardToolCall = { name: cut(call.name), args: jsonText(call.args) };
        byCallId.set(call.id, tool);
        return tool;
      });
      steps.push({ iteration: steps.length + 1, text: cut(m.content), tools });
    } else if (m.role === 'tool') {
      const tool = byCallId.get(m.toolCallId);
      if (tool !== undefined) tool.result = cut(m.content);
    }
  }
  const omittedSteps = Math.max(0, steps.length - MAX_VIEW_STEPS);
  const view: DashboardRunView = { steps: steps.slice(omittedSteps), omittedSteps, finishedSteps: [] };
  const tracker = progressTrackerStateSchema.safeParse(checkpoint?.state.tracker);
  if (tracker.success) {
    const { plan, currentStep, finishedSteps } = tracker.data;
    if (plan !== undefined) view.plan = { total: plan.total, completed: plan.completed, inProgress: plan.inProgress };
    if (currentStep !== undefined) view.currentStep = currentStep;
    view.finishedSteps = [...finishedSteps];
  }
  return redact(view);
}
