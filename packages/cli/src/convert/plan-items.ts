import { MAX_PLAN_ITEM_ID, MAX_PLAN_ITEM_TEXT, MAX_PLAN_ITEMS, type PlanItem, type PlanItemStatus } from '@headway/protocol';

/** One item of an agent's own plan as its tool wrote it, before it is checked. */
export interface RawPlanItem {
  id?: string | undefined;
  text: string | undefined;
  status: PlanItemStatus | undefined;
}

/**
 * The agent's plan as `plan.updated` items: at most {@link MAX_PLAN_ITEMS}, texts and ids cut to
 * the protocol's limits, items without text or status left out (an agent's tool call is model
 * output: anything can be in it).
 */
export function toPlanItems(raw: readonly RawPlanItem[]): PlanItem[] {
  const items: PlanItem[] = [];
  const ids = new Set<string>();
  for (const item of raw) {
    if (items.length >= MAX_PLAN_ITEMS) break;
    const text = item.text?.trim().slice(0, MAX_PLAN_ITEM_TEXT);
    if (text === undefined || text === '' || item.status === undefined) continue;
    const id = item.id?.slice(0, MAX_PLAN_ITEM_ID);
    // A plan's ids are unique: an item that repeats an id (or one cut to the same length) keeps its text, not the id.
    const keep = id !== undefined && id !== '' && !ids.has(id);
    if (keep) ids.add(id);
    items.push(keep ? { id, text, status: item.status } : { text, status: item.status });
  }
  return items;
}

/**
 * The items made to fit the protocol again after their texts changed (secrets redacted): texts
 * and ids cut to the limits, a repeated id dropped.
 */
export function fitPlanItems(items: readonly PlanItem[]): PlanItem[] {
  return toPlanItems(items);
}

/** A status word agents use, as a plan item status (`cancelled` and unknown words give undefined). */
export function planStatus(word: unknown): PlanItemStatus | undefined {
  return word === 'pending' || word === 'in_progress' || word === 'completed' ? word : undefined;
}

/**
 * `plan.updated` for the items, or nothing when none is left: the protocol's plan has at least one
 * item (an agent that clears its list has no plan to show progress by).
 */
export function planUpdate(items: PlanItem[]): { type: 'plan.updated'; items: PlanItem[] }[] {
  return items.length === 0 ? [] : [{ type: 'plan.updated', items }];
}
