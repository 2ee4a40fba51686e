// The one stateful piece of the package: ProgressEvents in, AG-UI events out. It keeps just
// enough state to close what is open (text, steps, tool calls) and to answer a snapshot for a
// client that attaches late. Over 300 lines because the closing rules and the snapshot read
// the same state; splitting them would spread one state machine over two files.
import {
  EventType,
  PROTOCOL_VERSION,
  type AGUIEvent,
  type AssistantMessage,
  type JsonPatchOperation,
  type Message,
  type ReasoningMessage,
  type RunAgentInput,
  type RunStartedEvent,
  type ToolMessage,
} from '@ag-ui/core';
import { redact, redactString, runEndOf, type ProgressEvent } from '@headway/protocol';
import { initialActivity, type ProgressActivityContent } from './progress-activity.js';

/** Options of {@link toAgUiEvents}. */
export interface ToAgUiEventsOptions {
  /** The AG-UI thread (default: the run id). */
  threadId?: string;
  /** The AG-UI run id (default: the `runId` of the first event). Ids of messages and tool calls derive from it. */
  runId?: string;
  /** The request the run was started from, echoed in `RUN_STARTED` (its messages then lead every snapshot). */
  input?: RunAgentInput;
  /** `activityType` of the progress activity (default `progress`). */
  activityType?: string;
  /**
   * Secrets in tool results and arguments (API keys, `DB_PASSWORD=…`, bearer tokens, URL
   * passwords, secret-named keys) become `[REDACTED]` in `TOOL_CALL_RESULT` and
   * `TOOL_CALL_ARGS`, whoever emitted the events. `false` turns this off, for a trusted, local
   * client only.
   */
  redact?: false;
}

/** A stateful mapping of one run's {@link ProgressEvent}s to AG-UI events. */
export interface AgUiEventMapper {
  /** AG-UI run id (known once given in options or after the first event). */
  readonly runId: string | undefined;
  /** True once `RUN_FINISHED` or `RUN_ERROR` was produced; later input maps to nothing. */
  readonly ended: boolean;
  /** `seq` of the last event pushed (0 before any). */
  readonly lastSeq: number;
  /** `RUN_STARTED` and the first `ACTIVITY_SNAPSHOT`, once (then `[]`); `push` calls it when needed. */
  start(): AGUIEvent[];
  /** The AG-UI events for one progress event, in order; `[]` after the run ended. */
  push(event: ProgressEvent): AGUIEvent[];
  /**
   * Ends a stream cut short: closes what is open and produces `RUN_ERROR` with code
   * `HEADWAY_STREAM_ENDED` (nothing when the run already ended).
   */
  end(message?: string): AGUIEvent[];
  /**
   * Events that bring a client that has seen nothing to the current state: `RUN_STARTED`,
   * `MESSAGES_SNAPSHOT` (the progress activity included), `STEP_STARTED` for each open step,
   * `TEXT_MESSAGE_START` for an open text message, and the terminal event once ended. The
   * events `push` returns next continue it without a sequencing error.
   */
  snapshot(): AGUIEvent[];
  /** The run's messages as a client holds them now (input messages, the progress activity, then the run's), copied. */
  messages(): Message[];
  /** The progress activity's content now. */
  activity(): ProgressActivityContent;
}

interface RunningTool {
  toolCallId: string;
  toolName: string;
  /** The `toolCallId` of our event, when it had one. */
  sourceId: string | undefined;
}

/** The run's terminal AG-UI event for the snapshot of an ended run. */
type TerminalAgUiEvent = Extract<AGUIEvent, { type: EventType.RUN_FINISHED | EventType.RUN_ERROR }>;

function timestampOf(ts: number): number | undefined {
  if (!Number.isFinite(ts)) return undefined;
  const t = Math.floor(ts);
  return Number.isSafeInteger(t) ? t : undefined;
}

function stringifyArgs(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  try {
    return JSON.stringify(args);
  } catch {
    return undefined;
  }
}

/**
 * Maps a headway run to the AG-UI protocol: `run.started` → `RUN_STARTED`, steps →
 * `STEP_STARTED`/`STEP_FINISHED`, tool calls → `TOOL_CALL_START`/`ARGS`/`END` then
 * `TOOL_CALL_RESULT` with the preview, text → `TEXT_MESSAGE_*`, thinking → a `REASONING_*`
 * message, progress, ETA, iterations, limits, wind-down, checkpoints and the report → one
 * `progress` activity (`ACTIVITY_SNAPSHOT`, then `ACTIVITY_DELTA` patches), the report also
 * as `CUSTOM` `headway.report`, cancellation → `RUN_FINISHED` with outcome `cancelled`,
 * errors → `RUN_ERROR`.
 *
 * Whatever the input (out of order, repeated, cut short), the output satisfies the AG-UI
 * client's sequencing rules: before `RUN_FINISHED` or `RUN_ERROR` the open text message is
 * ended, unfinished tool calls get a result, and open steps are finished, in that order.
 * Pure: no clock, no randomness; ids derive from the run id.
 *
 * @example
 * ```ts
 * const mapper = toAgUiEvents({ threadId: 'thread-1' });
 * hub.add((event) => {
 *   for (const e of mapper.push(event)) res.write(encoder.encodeSSE(e));
 * });
 * ```
 */
export function toAgUiEvents(options: ToAgUiEventsOptions = {}): AgUiEventMapper {
  const activityType = options.activityType ?? 'progress';
  const redacting = options.redact !== false;
  const input = options.input;
  let runId = options.runId;
  let threadId = options.threadId;
  let started = false;
  let terminal: TerminalAgUiEvent | undefined;
  let lastSeq = 0;
  let counter = 0;
  // Mutated in place (the cheap path, once per event); every event that carries it whole gets a copy.
  const activity = initialActivity();
  let dirty: (keyof ProgressActivityContent)[] = [];
  const messages: Message[] = [];
  const messageById = new Map<string, AssistantMessage | ReasoningMessage>();
  const usedToolIds = new Set<string>();
  const running: RunningTool[] = [];
  const openSteps: string[] = [];
  /** The assistant message of the current model turn: its text and the tool calls it makes. */
  let turnMessageId: string | undefined;
  /** A tool result came since the turn's message was opened: the next text or thinking is the model's next turn. */
  let turnHasResult = false;
  let openTextId: string | undefined;

  const activityId = (): string => `${runId ?? ''}:progress`;
  const nextId = (kind: string): string => {
    counter += 1;
    return `${runId ?? ''}:${kind}${counter}`;
  };

  function set<K extends keyof ProgressActivityContent>(key: K, value: ProgressActivityContent[K]): void {
    activity[key] = value;
    if (!dirty.includes(key)) dirty.push(key);
  }

  function flushActivity(out: AGUIEvent[], timestamp: number | undefined): void {
    if (dirty.length === 0) return;
    const patch: JsonPatchOperation[] = dirty.map((key) => ({ op: 'replace', path: `/${key}`, value: activity[key] }));
    dirty = [];
    out.push(stamp({ type: EventType.ACTIVITY_DELTA, messageId: activityId(), activityType, patch }, timestamp));
  }

  function stamp<E extends AGUIEvent>(event: E, timestamp: number | undefined): E {
    if (timestamp !== undefined) event.timestamp = timestamp;
    return event;
  }

  function isEnded(): boolean {
    return terminal !== undefined;
  }

  function runStartedEvent(timestamp: number | undefined): RunStartedEvent {
    const runStarted: RunStartedEvent = {
      type: EventType.RUN_STARTED,
      threadId: threadId ?? runId ?? '',
      runId: runId ?? '',
      protocolVersion: PROTOCOL_VERSION,
    };
    if (input !== undefined) runStarted.input = input;
    return stamp(runStarted, timestamp);
  }

  function startEvents(timestamp: number | undefined): AGUIEvent[] {
    return [
      runStartedEvent(timestamp),
      stamp({ type: EventType.ACTIVITY_SNAPSHOT, messageId: activityId(), activityType, content: { ...activity } }, timestamp),
    ];
  }

  function ensureStarted(out: AGUIEvent[], event: ProgressEvent | undefined, timestamp: number | undefined): void {
    if (started) return;
    started = true;
    runId ??= event?.runId ?? 'run';
    threadId ??= runId;
    if (event?.type === 'run.started') {
      activity.agentName = event.agentName;
      activity.task = event.task ?? null;
    }
    out.push(...startEvents(timestamp));
  }

  function assistantMessage(id: string): AssistantMessage {
    const existing = messageById.get(id);
    if (existing?.role === 'assistant') return existing;
    const message: AssistantMessage = { id, role: 'assistant' };
    messages.push(message);
    messageById.set(id, message);
    return message;
  }

  function closeText(out: AGUIEvent[], timestamp: number | undefined): void {
    if (openTextId === undefined) return;
    out.push(stamp({ type: EventType.TEXT_MESSAGE_END, messageId: openTextId }, timestamp));
    openTextId = undefined;
  }

  function finishStep(out: AGUIEvent[], name: string, timestamp: number | undefined): void {
    const index = openSteps.lastIndexOf(name);
    if (index === -1) return;
    openSteps.splice(index, 1);
    out.push(stamp({ type: EventType.STEP_FINISHED, stepName: name }, timestamp));
  }

  function toolResult(
    out: AGUIEvent[],
    tool: RunningTool,
    content: string,
    meta: Record<string, unknown>,
    timestamp: number | undefined,
  ): void {
    const messageId = `${tool.toolCallId}:result`;
    const message: ToolMessage = { id: messageId, role: 'tool', toolCallId: tool.toolCallId, content, metadata: { headway: meta } };
    // Where a client puts it: after the assistant message holding the call and its earlier results.
    // Searched from the end: the call's message is almost always among the last few.
    let parent = messages.length - 1;
    while (parent >= 0) {
      const m = messages[parent];
      if (m?.role === 'assistant' && m.toolCalls?.some((c) => c.id === tool.toolCallId) === true) break;
      parent -= 1;
    }
    if (parent === -1) messages.push(message);
    else {
      let at = parent + 1;
      while (at < messages.length && messages[at]?.role === 'tool') at += 1;
      messages.splice(at, 0, message);
    }
    out.push(
      stamp(
        { type: EventType.TOOL_CALL_RESULT, messageId, toolCallId: tool.toolCallId, role: 'tool', content, metadata: { headway: meta } },
        timestamp,
      ),
    );
    // Further calls of the same turn stay in its message; text after a result starts a new
    // assistant message, as a model's next turn would.
    turnHasResult = true;
  }

  /** Text or thinking after a tool result: the model's next turn gets its own message. */
  function nextTurnIfAnswered(): void {
    if (!turnHasResult) return;
    turnHasResult = false;
    turnMessageId = undefined;
  }

  function startTool(
    out: AGUIEvent[],
    toolName: string,
    sourceId: string | undefined,
    args: unknown,
    timestamp: number | undefined,
  ): RunningTool {
    closeText(out, timestamp);
    let toolCallId = sourceId !== undefined && sourceId !== '' && !usedToolIds.has(sourceId) ? sourceId : nextId('t');
    while (usedToolIds.has(toolCallId)) toolCallId = nextId('t');
    usedToolIds.add(toolCallId);
    turnMessageId ??= nextId('m');
    const parent = assistantMessage(turnMessageId);
    const argText = stringifyArgs(redacting ? redact(args) : args);
    parent.toolCalls = [
      ...(parent.toolCalls ?? []),
      { id: toolCallId, type: 'function', function: { name: toolName, arguments: argText ?? '' } },
    ];
    out.push(stamp({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: toolName, parentMessageId: turnMessageId }, timestamp));
    if (argText !== undefined && argText !== '') out.push(stamp({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: argText }, timestamp));
    out.push(stamp({ type: EventType.TOOL_CALL_END, toolCallId }, timestamp));
    const tool: RunningTool = { toolCallId, toolName, sourceId };
    running.push(tool);
    return tool;
  }

  /** Removes and returns the running call a completion belongs to: same id, else the oldest of that tool. */
  function takeRunning(toolName: string, sourceId: string | undefined): RunningTool | undefined {
    let index = sourceId === undefined ? -1 : running.findIndex((t) => t.sourceId === sourceId);
    if (index === -1) index = running.findIndex((t) => t.toolName === toolName && (sourceId === undefined || t.sourceId === undefined));
    if (index === -1) return undefined;
    const [tool] = running.splice(index, 1);
    return tool;
  }

  /** Closes everything open, in the order the client checks it. */
  function closeAll(out: AGUIEvent[], reason: string, timestamp: number | undefined): void {
    closeText(out, timestamp);
    if (running.length > 0) {
      const unfinished = running.splice(0);
      for (const tool of unfinished)
        toolResult(out, tool, `did not finish: ${reason}`, { ok: false, finished: false, toolName: tool.toolName }, timestamp);
    }
    for (const name of [...openSteps].reverse()) finishStep(out, name, timestamp);
  }

  function finish(out: AGUIEvent[], event: TerminalAgUiEvent, timestamp: number | undefined): void {
    flushActivity(out, timestamp);
    terminal = stamp(event, timestamp);
    out.push(terminal);
  }

  function map(event: ProgressEvent, out: AGUIEvent[], timestamp: number | undefined): void {
    switch (event.type) {
      case 'run.started':
        if (activity.agentName !== event.agentName) set('agentName', event.agentName);
        if (event.task !== undefined && activity.task !== event.task) set('task', event.task);
        if (event.parentRunId !== undefined && activity.parentRunId !== event.parentRunId) set('parentRunId', event.parentRunId);
        return;
      case 'step.started':
        closeText(out, timestamp);
        // The client refuses a step name that is already open: close the old one first.
        finishStep(out, event.step, timestamp);
        openSteps.push(event.step);
        turnMessageId = undefined;
        turnHasResult = false;
        out.push(stamp({ type: EventType.STEP_STARTED, stepName: event.step }, timestamp));
        return;
      case 'step.finished':
        closeText(out, timestamp);
        finishStep(out, event.step, timestamp);
        return;
      case 'thinking': {
        if (event.content === '') return;
        closeText(out, timestamp);
        nextTurnIfAnswered();
        const spanId = nextId('r');
        const messageId = nextId('m');
        const message: ReasoningMessage = { id: messageId, role: 'reasoning', content: event.content };
        messages.push(message);
        messageById.set(messageId, message);
        out.push(
          stamp({ type: EventType.REASONING_START, messageId: spanId }, timestamp),
          stamp({ type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' }, timestamp),
          stamp({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta: event.content }, timestamp),
          stamp({ type: EventType.REASONING_MESSAGE_END, messageId }, timestamp),
          stamp({ type: EventType.REASONING_END, messageId: spanId }, timestamp),
        );
        return;
      }
      case 'text.delta': {
        if (event.text === '') return;
        if (openTextId === undefined) {
          nextTurnIfAnswered();
          turnMessageId ??= nextId('m');
          openTextId = turnMessageId;
          assistantMessage(openTextId);
          out.push(stamp({ type: EventType.TEXT_MESSAGE_START, messageId: openTextId, role: 'assistant' }, timestamp));
        }
        const message = assistantMessage(openTextId);
        message.content = (message.content ?? '') + event.text;
        out.push(stamp({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: openTextId, delta: event.text }, timestamp));
        return;
      }
      case 'tool.executing':
        startTool(out, event.toolName, event.toolCallId, event.args, timestamp);
        return;
      case 'tool.completed': {
        // A completion whose start never came still gets a call to belong to.
        const tool = takeRunning(event.toolName, event.toolCallId) ?? startToolAndTake(out, event.toolName, event.toolCallId, timestamp);
        const meta: Record<string, unknown> = { ok: event.ok, durationMs: event.durationMs, toolName: event.toolName };
        const preview = event.preview ?? '';
        toolResult(out, tool, redacting ? redactString(preview) : preview, meta, timestamp);
        set('toolCalls', { finished: activity.toolCalls.finished + 1, failed: activity.toolCalls.failed + (event.ok ? 0 : 1) });
        return;
      }
      case 'tool.flagged':
      case 'strategy.rotated':
      case 'stall.detected':
      case 'stall.cleared': {
        const { runId: _r, seq: _s, ts: _t, type, ...value } = event;
        out.push(stamp({ type: EventType.CUSTOM, name: `headway.${type}`, value }, timestamp));
        return;
      }
      case 'progress':
        set('percent', event.percent);
        set('message', event.message ?? null);
        set('etaMs', event.etaMs ?? null);
        // Only when they change, so a patch carries a range only where the estimator has one.
        if (activity.etaLowMs !== (event.etaLowMs ?? null)) set('etaLowMs', event.etaLowMs ?? null);
        if (activity.etaHighMs !== (event.etaHighMs ?? null)) set('etaHighMs', event.etaHighMs ?? null);
        return;
      case 'intermediate.result':
        set('intermediateResult', event.content);
        out.push(stamp({ type: EventType.CUSTOM, name: 'headway.intermediate-result', value: { content: event.content } }, timestamp));
        return;
      case 'iteration':
        set('iteration', { index: event.index, max: event.max });
        return;
      case 'limit.approaching':
      case 'limit.reached':
        set('limits', { ...activity.limits, [event.limit]: { used: event.used, max: event.max, reached: event.type === 'limit.reached' } });
        return;
      case 'wind-down.started':
        set('windDown', { reason: event.reason, graceIterations: event.graceIterations });
        return;
      case 'timeout.extended':
        set('timeBudgetMs', event.totalBudgetMs);
        return;
      case 'checkpoint.saved':
        set('checkpoint', { checkpointId: event.checkpointId, iteration: event.iteration });
        return;
      case 'report.generated':
        set('report', event.report);
        out.push(stamp({ type: EventType.CUSTOM, name: 'headway.report', value: event.report }, timestamp));
        return;
      case 'run.finished': {
        closeAll(out, 'the run finished', timestamp);
        const end = runEndOf(event);
        set('status', end.state === 'interrupted' ? 'failed' : end.state);
        // `state` (and `limit`) are the one run-state vocabulary every part of headway uses.
        const result: Record<string, unknown> = { outcome: event.outcome, state: end.state, durationMs: event.durationMs };
        if (end.limit !== undefined) result.limit = end.limit;
        if (event.stopReason !== undefined) result.stopReason = event.stopReason;
        if (event.summary !== undefined) result.summary = event.summary;
        if (event.tokenCount !== undefined) result.tokenCount = event.tokenCount;
        finish(
          out,
          { type: EventType.RUN_FINISHED, threadId: threadId ?? '', runId: runId ?? '', outcome: { type: 'success' }, result },
          timestamp,
        );
        return;
      }
      case 'run.cancelled':
        closeAll(out, 'the run was cancelled', timestamp);
        set('status', 'cancelled');
        set('stopReason', event.reason ?? 'cancelled');
        finish(
          out,
          { type: EventType.RUN_FINISHED, threadId: threadId ?? '', runId: runId ?? '', outcome: { type: 'cancelled' } },
          timestamp,
        );
        return;
      case 'run.error':
        closeAll(out, 'the run failed', timestamp);
        set('status', 'failed');
        set('stopReason', event.error);
        finish(
          out,
          { type: EventType.RUN_ERROR, message: event.error === '' ? 'The run failed' : event.error, code: 'HEADWAY_RUN_ERROR' },
          timestamp,
        );
        return;
    }
  }

  function startToolAndTake(out: AGUIEvent[], toolName: string, sourceId: string | undefined, timestamp: number | undefined): RunningTool {
    const tool = startTool(out, toolName, sourceId, undefined, timestamp);
    running.pop();
    return tool;
  }

  function copyMessage(message: Message): Message {
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      return { ...message, toolCalls: message.toolCalls.map((c) => ({ ...c, function: { ...c.function } })) };
    }
    return { ...message };
  }

  function allMessages(): Message[] {
    const fromInput = (input?.messages ?? []).filter((m) => m.role !== 'activity');
    if (!started) return fromInput;
    // The activity message comes right after the input's, where the first ACTIVITY_SNAPSHOT put it.
    const progress: Message = { id: activityId(), role: 'activity', activityType, content: { ...activity } };
    return [...fromInput, progress, ...messages.map(copyMessage)];
  }

  return {
    get runId() {
      return runId;
    },
    get ended() {
      return terminal !== undefined;
    },
    get lastSeq() {
      return lastSeq;
    },
    start() {
      const out: AGUIEvent[] = [];
      ensureStarted(out, undefined, undefined);
      return out;
    },
    push(event) {
      if (terminal !== undefined) return [];
      if (Number.isFinite(event.seq)) lastSeq = event.seq;
      const timestamp = timestampOf(event.ts);
      const out: AGUIEvent[] = [];
      ensureStarted(out, event, timestamp);
      map(event, out, timestamp);
      // map() may have ended the run, which flushes the activity itself.
      if (!isEnded()) flushActivity(out, timestamp);
      return out;
    },
    end(message) {
      if (terminal !== undefined) return [];
      const out: AGUIEvent[] = [];
      ensureStarted(out, undefined, undefined);
      closeAll(out, 'the event stream ended', undefined);
      set('status', 'failed');
      const text = message ?? 'The event stream ended before the run finished';
      set('stopReason', text);
      finish(out, { type: EventType.RUN_ERROR, message: text, code: 'HEADWAY_STREAM_ENDED' }, undefined);
      return out;
    },
    snapshot() {
      const out: AGUIEvent[] = [];
      if (!started) {
        ensureStarted(out, undefined, undefined);
        return out;
      }
      out.push(runStartedEvent(undefined));
      out.push({ type: EventType.MESSAGES_SNAPSHOT, messages: allMessages() });
      if (terminal !== undefined) {
        out.push(terminal);
        return out;
      }
      for (const stepName of openSteps) out.push({ type: EventType.STEP_STARTED, stepName });
      if (openTextId !== undefined) out.push({ type: EventType.TEXT_MESSAGE_START, messageId: openTextId, role: 'assistant' });
      return out;
    },
    messages: allMessages,
    activity() {
      return { ...activity };
    },
  };
}
