import { isSpace } from '@headway/protocol/internal';
import type { TextEntry, ToolCallLogEntry } from './tool-call-log-state.js';

/** One step of a plan the model wrote. */
interface PlanStep {
  /** The step's number: as written for a numbered list, its position otherwise (from 1). */
  number: number;
  text: string;
  done: boolean;
}

/** The plan the model wrote most recently, and where. */
export interface Plan {
  /** The text entry the plan was read from. */
  source: TextEntry;
  steps: PlanStep[];
}

// A list item's marker, read at one position (sticky) after up to three spaces.
const ITEM_MARKER = /(\d{1,3})[.)]|[-*+•]|step\s+(\d{1,3})\s*[:.)-]/iy;
const CHECKBOX = /^\[([ x✓])\]\s+/i;
const STRUCK = /^~~(.+)~~$/;
// Tested on text with no trailing whitespace; each start is a mark character, so a search costs
// one pass over the spaces after each dash.
const DONE_MARK = /(?:[✓✅✔☑]|\((?:done|completed|finished)\)|[-–—]\s*(?:done|completed|finished)\.?)$/i;
const DONE_LEAD = /^(?:[✓✅✔☑]|(?:done|completed)\s*[:-])\s*/i;
const PLAN_WORDS = /\b(?:plan|steps?|todo|to-do|next|will|going to|approach|then)\b/i;
const DONE_WORDS = /\b(?:done|complete|completed|finished|accomplished|covered)\b|[✓✅✔]/i;
const MOVE_WORDS =
  /\b(?:now|next|moving on|move on|starting|start|begin|beginning|proceed|proceeding|working on|on to|onto|continue with|continuing with)\b/i;
const STEP_REF = /\bsteps?\s+(\d{1,3})(?:\s*(?:[-–&]|to|and)\s*(\d{1,3}))?/gi;

/** `1. text`, `- text`, `Step 2: text` (after up to three spaces) → the explicit number and the text. */
function readItem(line: string): { explicit: string | undefined; body: string } | undefined {
  let at = 0;
  while (at < 3 && isSpace(line[at])) at++;
  ITEM_MARKER.lastIndex = at;
  const marker = ITEM_MARKER.exec(line);
  if (marker === null) return undefined;
  at += marker[0].length;
  if (!isSpace(line[at])) return undefined;
  const body = line.slice(at).trimStart();
  return body === '' ? undefined : { explicit: marker[1] ?? marker[2], body };
}

function readItems(text: string): { steps: PlanStep[]; checkboxes: boolean } {
  const steps: PlanStep[] = [];
  let checkboxes = false;
  for (const line of text.split('\n')) {
    const item = readItem(line);
    if (item === undefined) continue;
    const { explicit } = item;
    let body = item.body.trim();
    let done = false;
    const box = CHECKBOX.exec(body);
    if (box) {
      checkboxes = true;
      done = box[1] !== ' ';
      body = body.slice(box[0].length);
    }
    const struck = STRUCK.exec(body);
    if (struck) {
      done = true;
      body = struck[1] ?? body;
    }
    body = body.trimEnd();
    if (DONE_MARK.test(body)) {
      done = true;
      body = body.replace(DONE_MARK, '');
    }
    if (DONE_LEAD.test(body)) {
      done = true;
      body = body.replace(DONE_LEAD, '');
    }
    body = body.trim();
    if (body === '') continue;
    steps.push({ number: explicit === undefined ? steps.length + 1 : Number(explicit), text: body, done });
  }
  return { steps, checkboxes };
}

function isPlan(text: string, found: ReturnType<typeof readItems>): boolean {
  return found.steps.length >= 2 && (found.checkboxes || PLAN_WORDS.test(text));
}

/** Marks steps done from what the model said after writing the plan ("step 2 done", "now step 4"). */
function applyLaterText(steps: PlanStep[], text: string): void {
  for (const sentence of text.split(/(?<=[.!?])\s+|\n/)) {
    const done = DONE_WORDS.test(sentence);
    const moving = MOVE_WORDS.test(sentence);
    for (const m of sentence.matchAll(STEP_REF)) {
      const from = Number(m[1]);
      const to = m[2] === undefined ? from : Number(m[2]);
      for (const s of steps) {
        if (done && s.number >= from && s.number <= to) s.done = true;
        else if (!done && moving && s.number < from) s.done = true;
      }
    }
  }
}

/**
 * Finds the most recent plan in the model's text — a checklist, or a numbered or bulleted
 * list in text that speaks of a plan or steps (so a list of findings is not taken for one) — and which of its steps are done: ticked boxes,
 * struck-through or `(done)` items, and what the model said afterwards ("step 2 is done",
 * "moving on to step 4" marks 1–3 done). Returns `undefined` when there is no plan.
 */
export function extractPlan(entries: readonly ToolCallLogEntry[]): Plan | undefined {
  let plan: Plan | undefined;
  let planAt = -1;
  entries.forEach((entry, i) => {
    if (entry.kind !== 'text') return;
    const found = readItems(entry.text);
    if (isPlan(entry.text, found)) {
      plan = { source: entry, steps: found.steps };
      planAt = i;
    }
  });
  if (plan === undefined) return undefined;
  for (const entry of entries.slice(planAt + 1)) if (entry.kind === 'text') applyLaterText(plan.steps, entry.text);
  return plan;
}
