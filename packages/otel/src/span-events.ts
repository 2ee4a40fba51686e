import type { Attributes } from '@opentelemetry/api';
import type { ProgressEvent } from '@headway/protocol';
import type { ContentCapture } from './content.js';
import { GEN_AI, HEADWAY, SPAN_EVENT } from './names.js';

/** A span event of the run span: its name and its values. */
export interface RunSpanEvent {
  name: string;
  attributes: Attributes;
}

/**
 * The span event an event becomes on the run span (progress, limits, wind-down, extensions,
 * checkpoints, the report, flagged tools, strategy rotations; thinking and intermediate results
 * only with content capture), or undefined for the events that are spans or attributes.
 */
export function runSpanEvent(event: ProgressEvent, content: ContentCapture | undefined): RunSpanEvent | undefined {
  switch (event.type) {
    case 'progress': {
      const attributes: Attributes = { [HEADWAY.percent]: event.percent };
      if (event.etaMs !== undefined) attributes['headway.progress.eta_ms'] = event.etaMs;
      if (event.message !== undefined && content !== undefined) attributes['headway.progress.message'] = content.text(event.message);
      return { name: SPAN_EVENT.progress, attributes };
    }
    case 'limit.approaching':
    case 'limit.reached':
      return {
        name: event.type === 'limit.reached' ? SPAN_EVENT.limitReached : SPAN_EVENT.limitApproaching,
        attributes: { 'headway.limit': event.limit, 'headway.limit.used': event.used, 'headway.limit.max': event.max },
      };
    case 'wind-down.started':
      return {
        name: SPAN_EVENT.windDown,
        attributes: { 'headway.wind_down.reason': event.reason, 'headway.wind_down.grace_iterations': event.graceIterations },
      };
    case 'timeout.extended':
      return {
        name: SPAN_EVENT.timeoutExtended,
        attributes: { 'headway.timeout.by_ms': event.byMs, 'headway.timeout.total_budget_ms': event.totalBudgetMs },
      };
    case 'checkpoint.saved':
      return {
        name: SPAN_EVENT.checkpoint,
        attributes: { 'headway.checkpoint.id': event.checkpointId, [HEADWAY.iteration]: event.iteration },
      };
    case 'report.generated': {
      const { report } = event;
      return {
        name: SPAN_EVENT.report,
        attributes: {
          'headway.report.reason': report.reason,
          'headway.report.generated_by': report.generatedBy,
          'headway.report.completed_work': report.completedWork.length,
          'headway.report.remaining': report.remaining.length,
          'headway.report.suggested_next_steps': report.suggestedNextSteps.length,
        },
      };
    }
    case 'tool.flagged': {
      const attributes: Attributes = { [GEN_AI.toolName]: event.toolName, 'headway.findings.count': event.findings.length };
      if (event.toolCallId !== undefined) attributes[GEN_AI.toolCallId] = event.toolCallId;
      if (content !== undefined) attributes['headway.findings'] = event.findings.slice(0, 20).map((f) => content.text(f));
      return { name: SPAN_EVENT.toolFlagged, attributes };
    }
    case 'strategy.rotated':
      return { name: SPAN_EVENT.strategyRotated, attributes: { [GEN_AI.toolName]: event.toolName, 'headway.failures': event.failures } };
    case 'stall.detected': {
      const attributes: Attributes = {
        'headway.stall.kind': event.kind,
        'headway.stall.since': event.since,
        'headway.stall.repeats': event.evidence.repeats,
        'headway.stall.tool_call_ids': event.evidence.toolCallIds.slice(0, 20),
      };
      // What repeated quotes the call (a command, a path): content, captured only when asked.
      if (content !== undefined) attributes['headway.stall.subject'] = content.text(event.evidence.subject);
      return { name: SPAN_EVENT.stallDetected, attributes };
    }
    case 'stall.cleared':
      return { name: SPAN_EVENT.stallCleared, attributes: { 'headway.stall.kind': event.kind, 'headway.stall.since': event.since } };
    case 'thinking':
    case 'intermediate.result':
      if (content === undefined) return undefined;
      return {
        name: event.type === 'thinking' ? SPAN_EVENT.thinking : SPAN_EVENT.intermediateResult,
        attributes: { 'headway.content': content.text(event.content) },
      };
    default:
      return undefined;
  }
}
