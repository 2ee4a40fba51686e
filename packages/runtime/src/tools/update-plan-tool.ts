import { planItemsSchema, type PlanItem } from '@headway/protocol';
import { z } from 'zod';
import { defineTool, type Tool } from './define-tool.js';

/** The name the built-in plan tool is offered under (as Codex names it). */
export const UPDATE_PLAN_TOOL_NAME = 'update_plan';

/** Arguments of the built-in plan tool: the whole plan, as it stands now. */
export interface UpdatePlanArgs {
  items: PlanItem[];
}

function summary(items: readonly PlanItem[]): string {
  const done = items.filter((i) => i.status === 'completed').length;
  const current = items.find((i) => i.status === 'in_progress');
  return `Plan updated: ${done}/${items.length} done${current === undefined ? '' : `, now: ${current.text}`}.`;
}

/**
 * The built-in `update_plan` tool the runtime offers when `planTool: true`: the model sends
 * its whole plan each call (items with `pending` / `in_progress` / `completed`), the runtime
 * emits `plan.updated`, the bar follows the plan while the model keeps it current, and the
 * progress report uses it. Arguments that do not validate (no items, duplicate ids, an
 * unknown status, more than 200 items) go back to the model as a tool error and change nothing.
 */
export const updatePlanTool: Tool<UpdatePlanArgs, string> = defineTool({
  name: UPDATE_PLAN_TOOL_NAME,
  description: [
    'Keep your plan for this task up to date. Send the whole list every time (it replaces the previous one):',
    'each item has a short `text` and a `status` of "pending", "in_progress" or "completed" (optionally a stable `id`).',
    'Write the plan before you start, mark one item "in_progress" at a time, and mark items "completed" as soon as they are done.',
  ].join(' '),
  parameters: z.object({ items: planItemsSchema }),
  safe: true,
  execute: ({ items }) => summary(items),
});
