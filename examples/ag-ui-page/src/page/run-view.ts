// What the page shows, worked out from what the AG-UI client holds: each step named by the
// progress message the run reported while it was open (not `llm-1`), the ETA range, and the
// model's narration (text of turns that called tools) kept apart from its answer (the last turn).
import type { Message } from '@ag-ui/client';

/** A step as the page lists it. */
export interface StepView {
  /** The step's name in the events (`llm-1`). */
  name: string;
  /** What the run said it was doing during the step (its progress message), when it said. */
  title?: string;
  finished: boolean;
}

/** The steps of a run, named as they go. */
export class StepList {
  readonly #steps: StepView[] = [];
  #lastMessage: string | null = null;

  /** A `STEP_STARTED` arrived. */
  started(name: string): void {
    this.#steps.push({ name, finished: false });
  }

  /** A `STEP_FINISHED` arrived. */
  finished(name: string): void {
    const step = this.#steps.findLast((s) => s.name === name && !s.finished);
    if (step !== undefined) step.finished = true;
  }

  /** The progress message now: a new one names the latest step that has no name yet. */
  message(message: string | null): void {
    if (message === null || message === this.#lastMessage) return;
    this.#lastMessage = message;
    const step = this.#steps.at(-1);
    if (step !== undefined && step.title === undefined) step.title = message;
  }

  /** The steps with their labels: the title, else `step N`. */
  view(): { name: string; label: string; finished: boolean }[] {
    return this.#steps.map((s, i) => ({ name: s.name, label: s.title ?? `step ${i + 1}`, finished: s.finished }));
  }
}

/** The narration and the answer of a run, from the client's messages. */
export interface TextView {
  /** Text of the turns that called tools, in order. */
  narration: string[];
  /** The last turn's text, once the run ended with it (a run stopped short shows its report instead). */
  answer?: string;
}

/** Splits the assistant's text into narration and the answer; `ended` is whether the run is over. */
export function textView(messages: readonly Message[], ended: boolean): TextView {
  const turns = messages.flatMap((m) =>
    m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== ''
      ? [{ text: m.content.trim(), toolCalls: m.toolCalls?.length ?? 0 }]
      : [],
  );
  const last = turns.at(-1);
  if (!ended || last === undefined || last.toolCalls > 0) return { narration: turns.map((t) => t.text) };
  return { narration: turns.slice(0, -1).map((t) => t.text), answer: last.text };
}

/** A range of time left in the unit of its high end: `20–45 s`, `2–5 min`, `1–3 h` (as the dashboard writes it). */
export function formatRange(lowMs: number, highMs: number): string {
  const [unitMs, unit] = highMs < 60_000 ? [1000, 's'] : highMs < 3_600_000 ? [60_000, 'min'] : [3_600_000, 'h'];
  const lo = Math.floor(Math.max(0, lowMs) / unitMs);
  const hi = Math.max(1, Math.ceil(highMs / unitMs));
  return lo >= hi ? `${hi} ${unit}` : `${lo === 0 ? '<1' : String(lo)}–${hi} ${unit}`;
}
