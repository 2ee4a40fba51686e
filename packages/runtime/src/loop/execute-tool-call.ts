import type { ReportInternalError } from './internal-error-context.js';
import { describeIssues, safeStringify, toValidationIssues, type ProgressEventBody } from '@headway/protocol';
import { describeThrown, errorMessage } from '@headway/protocol/internal';
import type { Tool, ToolContext } from '../tools/define-tool.js';
import type { ToolProgress } from '../tools/tool-progress.js';
import { scanForInjection, wrapUntrusted } from '../tools/injection-scan.js';
import { truncateToolResult } from '../tools/truncate-tool-result.js';
import type { Clock } from './clock.js';
import type { ToolCallStatus } from './run-state.js';
import { isStopSignal, raceStop } from './stop-signal.js';

/** What one tool call produced: the message content the model gets and the plain result for the log. */
export interface ToolCallResult {
  content: string;
  /** The tool's return value as plain data (a string, or what its JSON parses back to). */
  raw: unknown;
  ok: boolean;
  durationMs: number;
}

/** What executing a tool call needs from the loop. */
export interface ToolCallEnv {
  tools: ReadonlyMap<string, Tool>;
  clock: Clock;
  runId: string;
  /** Aborts the tool when the run stops. */
  stop: AbortSignal;
  /** Whether the run has been stopped (a tool error after a stop is the stop). */
  stopped: () => boolean;
  emit: (body: ProgressEventBody) => void;
  onInternalError: ReportInternalError;
  /** Stores an oversized result with the checkpoint; returns what the conversation carries instead. */
  externalize: ((content: string) => Promise<string>) | undefined;
  /** Opens the call's channel into the run's bar (`ctx.progressSlice`, `ctx.reportProgress`). */
  openProgress: () => ToolProgress;
}

/**
 * A tool's return value as text and as plain data. Tool return values are untrusted: a getter,
 * `toJSON` or `toString` may throw, a proxy may be revoked; none of that escapes here.
 */
function plainResult(result: unknown): { text: string; raw: unknown } {
  if (typeof result === 'string') return { text: result, raw: result };
  if (result === undefined || result === null) return { text: '', raw: result };
  let text: string | undefined;
  try {
    text = safeStringify(result);
  } catch {
    text = undefined;
  }
  if (typeof text !== 'string') text = describeThrown(result);
  try {
    return { text, raw: JSON.parse(text) as unknown };
  } catch {
    return { text, raw: text };
  }
}

/**
 * Runs one tool call: validates the arguments with the tool's schema, executes it (aborted when
 * the run stops), and turns whatever came back — a value, a thrown anything — into the content
 * the model gets. Unknown tools, invalid arguments and failures go back to the model as tool
 * errors; only a stop of the run propagates.
 */
export async function executeToolCall(call: ToolCallStatus, iteration: number, env: ToolCallEnv): Promise<ToolCallResult> {
  const { clock, tools } = env;
  const startedAt = clock.now();
  const tool = tools.get(call.name);
  let result: unknown;
  let ok = false;
  if (tool === undefined) {
    result = `Error: unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(', ') || 'none'}.`;
  } else {
    const parsed = tool.parameters.safeParse(call.args);
    if (!parsed.success) {
      result = `Error: invalid arguments for ${call.name}: ${describeIssues(toValidationIssues(parsed.error))}. Fix the arguments and call it again.`;
    } else {
      const progress = env.openProgress();
      const ctx: ToolContext = {
        signal: env.stop,
        idempotencyKey: `${env.runId}:${call.id}`,
        runId: env.runId,
        toolCallId: call.id,
        iteration,
        progressSlice: progress.slice,
        reportProgress: (update) => {
          progress.report(update);
        },
      };
      try {
        result = await raceStop(
          Promise.resolve().then(() => tool.execute(parsed.data, ctx)),
          env.stop,
        );
        ok = true;
      } catch (error) {
        if (isStopSignal(error) || env.stopped()) throw error;
        result = `Error: ${call.name} failed: ${errorMessage(error)}`;
      } finally {
        progress.close();
      }
    }
  }
  const durationMs = Math.max(0, clock.now() - startedAt);
  const { text, raw } = plainResult(result);
  let content = text === '' ? '(no output)' : truncateToolResult(text).text;
  const scan = scanForInjection(content);
  if (scan.flagged) {
    content = wrapUntrusted(call.name, content, scan);
    env.emit({
      type: 'tool.flagged',
      toolName: call.name,
      toolCallId: call.id,
      findings: scan.findings.map((f) => `${f.kind} "${f.match}"`),
    });
  }
  if (env.externalize !== undefined) {
    try {
      content = await env.externalize(content);
    } catch (error) {
      env.onInternalError(error, 'checkpoint.blob');
    }
  }
  return { content, raw, ok, durationMs };
}
