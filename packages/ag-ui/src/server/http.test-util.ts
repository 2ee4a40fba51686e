import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AGUIEvent, Message } from '@ag-ui/core';
import { HttpAgent, type RunAgentParameters } from '@ag-ui/client';
import { isTerminalEvent, runEndOf, type ProgressEvent } from '@headway/protocol';
import { expect } from 'vitest';
import { recordingSubscriber, schemaProblems, withClientWarnings, type ClientView } from '../ag-ui-client.test-util.js';

/** A real HTTP server on 127.0.0.1 and a random port. */
export async function listen(listener: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The AG-UI events in SSE text, as JSON (what went over the wire). */
export function parseSseEvents(text: string): AGUIEvent[] {
  const out: AGUIEvent[] = [];
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6));
    if (data.length > 0) out.push(JSON.parse(data.join('\n')) as AGUIEvent);
  }
  return out;
}

/** What an `HttpAgent` run saw and ended with, plus the raw events on the wire. */
export interface HttpRun extends ClientView {
  wire: AGUIEvent[];
  /** The response body as it arrived. */
  wireText: string;
  agent: HttpAgent;
}

/**
 * Runs the official `HttpAgent` against `url`, teeing the response body so the test also
 * sees the bytes; fails the test on any schema problem in them.
 */
export async function runHttpAgent(
  url: string,
  parameters: RunAgentParameters = {},
  options: {
    threadId?: string;
    onToolCallStart?: (toolCallId: string) => void;
    onRunStarted?: () => void;
    initialMessages?: Message[];
    /** How requests are sent (default the global `fetch`). */
    fetch?: (url: string, init: RequestInit) => Promise<Response>;
  } = {},
): Promise<HttpRun> {
  let wireText = '';
  const wireDone: Promise<void>[] = [];
  const agent = new HttpAgent({
    url,
    threadId: options.threadId ?? 'thread-1',
    initialMessages: options.initialMessages ?? [{ id: 'u1', role: 'user', content: 'Summarize the repository' }],
    fetch: async (input, init) => {
      const response = await (options.fetch ?? fetch)(input, init);
      if (response.body === null) return response;
      const [mine, theirs] = response.body.tee();
      wireDone.push(
        (async () => {
          const decoder = new TextDecoder();
          for await (const chunk of mine as unknown as AsyncIterable<Uint8Array>) wireText += decoder.decode(chunk, { stream: true });
        })(),
      );
      return new Response(theirs, { status: response.status, headers: response.headers });
    },
  });
  const view = {
    steps: [] as string[],
    custom: [] as ClientView['custom'],
    outcome: undefined as string | undefined,
    runError: undefined as string | undefined,
  };
  const subscriber = {
    ...recordingSubscriber(view),
    onToolCallStartEvent: ({ event }: { event: { toolCallId: string } }) => {
      options.onToolCallStart?.(event.toolCallId);
    },
    onRunStartedEvent: () => {
      options.onRunStarted?.();
    },
  };
  const { warnings } = await withClientWarnings(() => agent.runAgent(parameters, subscriber));
  await Promise.all(wireDone);
  const wire = parseSseEvents(wireText);
  expect(schemaProblems(wire)).toEqual([]);
  return { ...view, messages: agent.messages, warnings, wire, wireText, agent };
}

/** Checks the client's end state against what our events say: text, tools, steps, percent, status. */
export function expectStateMatches(run: HttpRun, events: readonly ProgressEvent[]): void {
  const text = events.flatMap((e) => (e.type === 'text.delta' ? [e.text] : [])).join('');
  const assistantText = run.messages.flatMap((m) => (m.role === 'assistant' && typeof m.content === 'string' ? [m.content] : [])).join('');
  expect(assistantText).toBe(text);
  const toolNames = events.flatMap((e) => (e.type === 'tool.executing' ? [e.toolName] : []));
  const calledNames = run.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.function.name) : []));
  expect(calledNames).toEqual(toolNames);
  const previews = events.flatMap((e) => (e.type === 'tool.completed' ? [e.preview ?? ''] : []));
  const results = run.messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
  expect(results.slice(0, previews.length)).toEqual(previews);
  expect(run.steps).toEqual(events.flatMap((e) => (e.type === 'step.started' ? [e.step] : [])));
  const progress = events.filter((e) => e.type === 'progress').at(-1);
  const activity = run.messages.find((m) => m.role === 'activity');
  expect(activity?.content.percent).toBe(progress?.type === 'progress' ? progress.percent : 0);
  const terminal = events.at(-1);
  // The one run-state vocabulary: a stream cut short (no terminal event) reads as failed.
  expect(activity?.content.status).toBe(terminal !== undefined && isTerminalEvent(terminal) ? runEndOf(terminal).state : 'failed');
  expect(run.warnings).toEqual([]);
}
