// The official AG-UI client, used as the judge of every stream the tests produce.
import type { AGUIEvent, BaseEvent, Message } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';
import { AbstractAgent, verifyEvents, type AgentSubscriber, type RunAgentInput } from '@ag-ui/client';
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';

/** Every problem `@ag-ui/core`'s own schema finds in the events, as `index type: message`. */
export function schemaProblems(events: readonly AGUIEvent[]): string[] {
  const problems: string[] = [];
  events.forEach((event, index) => {
    const parsed = EventSchema.safeParse(JSON.parse(JSON.stringify(event)));
    if (!parsed.success) problems.push(`${index} ${event.type}: ${parsed.error.message}`);
  });
  return problems;
}

/** Runs the events through the client's sequencing verifier; resolves, or rejects with its error. */
export async function verifyWithClient(events: readonly AGUIEvent[]): Promise<void> {
  await lastValueFrom(from(events as BaseEvent[]).pipe(verifyEvents(false), toArray()));
}

class ReplayAgent extends AbstractAgent {
  constructor(private readonly events: readonly AGUIEvent[]) {
    super({ threadId: 'thread-1' });
  }

  override run(_input: RunAgentInput): Observable<BaseEvent> {
    return from(JSON.parse(JSON.stringify(this.events)) as BaseEvent[]);
  }
}

/** What the client ended with after a run, plus what it saw on the way. */
export interface ClientView {
  messages: Message[];
  steps: string[];
  custom: { name: string; value: unknown }[];
  outcome: string | undefined;
  runError: string | undefined;
  /** Warnings the client printed about the stream (`[ag-ui]…`), which mean it changed or dropped something. */
  warnings: string[];
}

/** A subscriber that records what a UI would see; pass it to `runAgent`. */
export function recordingSubscriber(view: Omit<ClientView, 'messages' | 'warnings'>): AgentSubscriber {
  return {
    onStepStartedEvent: ({ event }) => {
      view.steps.push(event.stepName);
    },
    onCustomEvent: ({ event }) => {
      view.custom.push({ name: event.name, value: event.value as unknown });
    },
    onRunFinishedEvent: (params) => {
      view.outcome = params.outcome;
    },
    onRunErrorEvent: ({ event }) => {
      view.runError = event.message;
    },
  };
}

/** Collects the client's own warnings while `body` runs. */
export async function withClientWarnings<T>(body: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  };
  try {
    return { value: await body(), warnings };
  } finally {
    console.warn = original;
  }
}

/** Applies the events with the client's full pipeline (schemas, chunk transform, verifier, state). */
export async function replayThroughClient(events: readonly AGUIEvent[]): Promise<ClientView> {
  const agent = new ReplayAgent(events);
  const view = {
    steps: [] as string[],
    custom: [] as ClientView['custom'],
    outcome: undefined as string | undefined,
    runError: undefined as string | undefined,
  };
  const { warnings } = await withClientWarnings(() => agent.runAgent({}, recordingSubscriber(view)));
  return { ...view, messages: agent.messages, warnings };
}
