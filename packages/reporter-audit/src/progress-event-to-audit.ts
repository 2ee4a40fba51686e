import type { ProgressEvent } from '@headway/protocol';
import type { AuditDetails, AuditEventType } from './audit-event.js';

/** An audit event type with its detail, before the envelope is added. */
export type AuditRecord = { [T in AuditEventType]: { eventType: T; detail: AuditDetails[T] } }[AuditEventType];

function given<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
}

/**
 * Maps a progress event to its audit type and detail (see the README's table).
 * `text.delta` gives `undefined` unless `textDeltas` is set: streamed tokens would flood an
 * audit log with fragments that the final summary already holds.
 */
export function progressEventToAudit(event: ProgressEvent, textDeltas: boolean): AuditRecord | undefined {
  const run = { runId: event.runId, seq: event.seq };
  switch (event.type) {
    case 'run.started':
      return { eventType: 'agent.progress.start', detail: { task: event.task ?? event.agentName, agentName: event.agentName, ...run } };
    case 'progress':
      return {
        eventType: 'agent.progress.update',
        detail: {
          pct: event.percent,
          label: event.message ?? '',
          ...given('etaMs', event.etaMs),
          ...given('etaLowMs', event.etaLowMs),
          ...given('etaHighMs', event.etaHighMs),
          ...run,
        },
      };
    case 'tool.executing':
      return {
        eventType: 'agent.progress.tool_start',
        detail: { tool: event.toolName, ...given('toolCallId', event.toolCallId), ...given('args', event.args), ...run },
      };
    case 'tool.completed':
      return {
        eventType: 'agent.progress.tool_done',
        detail: {
          tool: event.toolName,
          summary: event.ok ? 'ok' : 'error',
          ok: event.ok,
          durationMs: event.durationMs,
          ...given('toolCallId', event.toolCallId),
          ...given('preview', event.preview),
          ...run,
        },
      };
    case 'iteration':
      return { eventType: 'agent.progress.iteration', detail: { iteration: event.index, max: event.max, ...run } };
    case 'run.finished':
      return {
        eventType: 'agent.progress.complete',
        detail: {
          summary: event.summary ?? (event.outcome === 'limit' ? 'stopped at a limit' : 'finished'),
          outcome: event.outcome,
          durationMs: event.durationMs,
          ...given('tokenCount', event.tokenCount),
          ...run,
        },
      };
    case 'run.error':
      return { eventType: 'agent.progress.error', detail: { error: event.error, ...run } };
    case 'run.cancelled':
      return { eventType: 'agent.progress.cancelled', detail: { ...given('reason', event.reason), ...run } };
    case 'step.started':
      return { eventType: 'agent.progress.step_start', detail: { step: event.step, ...given('description', event.description), ...run } };
    case 'step.finished':
      return { eventType: 'agent.progress.step_done', detail: { step: event.step, durationMs: event.durationMs, ...run } };
    case 'thinking':
      return { eventType: 'agent.progress.thinking', detail: { content: event.content, ...run } };
    case 'text.delta':
      return textDeltas ? { eventType: 'agent.progress.text', detail: { text: event.text, ...run } } : undefined;
    case 'intermediate.result':
      return { eventType: 'agent.progress.intermediate_result', detail: { content: event.content, ...run } };
    case 'limit.approaching':
      return { eventType: 'agent.progress.limit_approaching', detail: { limit: event.limit, used: event.used, max: event.max, ...run } };
    case 'limit.reached':
      return { eventType: 'agent.progress.limit_reached', detail: { limit: event.limit, used: event.used, max: event.max, ...run } };
    case 'wind-down.started':
      return { eventType: 'agent.progress.wind_down', detail: { reason: event.reason, graceIterations: event.graceIterations, ...run } };
    case 'timeout.extended':
      return { eventType: 'agent.progress.timeout_extended', detail: { byMs: event.byMs, totalBudgetMs: event.totalBudgetMs, ...run } };
    case 'checkpoint.saved':
      return { eventType: 'agent.progress.checkpoint', detail: { checkpointId: event.checkpointId, iteration: event.iteration, ...run } };
    case 'report.generated':
      return { eventType: 'agent.progress.report', detail: { report: event.report, ...run } };
    case 'tool.flagged':
      return {
        eventType: 'agent.progress.tool_flagged',
        detail: { tool: event.toolName, ...given('toolCallId', event.toolCallId), findings: event.findings, ...run },
      };
    case 'strategy.rotated':
      return { eventType: 'agent.progress.strategy_rotated', detail: { tool: event.toolName, failures: event.failures, ...run } };
    case 'stall.detected':
      return {
        eventType: 'agent.progress.stall_detected',
        detail: {
          kind: event.kind,
          since: event.since,
          subject: event.evidence.subject,
          repeats: event.evidence.repeats,
          toolCallIds: [...event.evidence.toolCallIds],
          ...run,
        },
      };
    case 'stall.cleared':
      return { eventType: 'agent.progress.stall_cleared', detail: { kind: event.kind, since: event.since, ...run } };
    case 'plan.updated':
      return { eventType: 'agent.progress.plan', detail: { items: event.items.map((item) => ({ ...item })), ...run } };
    default:
      return undefined;
  }
}
