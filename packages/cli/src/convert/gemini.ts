import type { ConverterOptions } from './claude-code.js';
import type { ConvertedEvent, StreamConverter } from './converter.js';
import { planStatus, planUpdate, toPlanItems } from './plan-items.js';
import { count, field, isoTime, list, num, str } from './read-json.js';
import { at, TurnTracker } from './turn-tracker.js';

/**
 * gemini-cli's `gemini -p … --output-format stream-json` (`JsonStreamEvent` of gemini-cli 0.11 and
 * later: `init`, `message`, `tool_use`, `tool_result`, `error`, `result`, each with an ISO
 * `timestamp`, used as the event time):
 *
 * - `init` → `run.started` (agent `gemini-cli`, its `session_id`);
 * - a model turn starts at the first assistant `message` or `tool_use`, and again after tool results;
 * - assistant `message` → `text.delta` (user messages are the prompt: skipped);
 * - `tool_use` → `tool.executing`; a `write_todos` call → `plan.updated` right after it (its
 *   `todos[].description` and `status`; `cancelled` items leave the plan);
 * - `tool_result` → `tool.completed` (`status`, `output` or `error.message` as preview);
 * - `result` → `run.finished` with `stats.total_tokens` and `stats.duration_ms`, or `run.error`;
 *   `error` lines are warnings, not the end of the run.
 */
export class GeminiConverter implements StreamConverter {
  readonly format = 'gemini' as const;
  sessionId: string | undefined;
  readonly #turns: TurnTracker;
  #started = false;
  #afterTools = false;
  #model: string | undefined;

  constructor(options: ConverterOptions = {}) {
    this.#turns = new TurnTracker(options.maxTurns, options.redact !== false);
  }

  convert(value: unknown, now: number): ConvertedEvent[] | undefined {
    const type = str(value, 'type');
    const ts = isoTime(value, 'timestamp');
    switch (type) {
      case 'init':
        this.sessionId ??= str(value, 'session_id');
        this.#model = str(value, 'model');
        return this.#start(ts);
      case 'message': {
        const role = str(value, 'role');
        const content = str(value, 'content');
        if (role === 'user') return this.#start(ts);
        if (role !== 'assistant' || content === undefined) return undefined;
        return [...this.#start(ts), ...this.#turn(now, ts), ...(content === '' ? [] : [at({ type: 'text.delta', text: content }, ts)])];
      }
      case 'tool_use': {
        const name = str(value, 'tool_name') ?? 'tool';
        const params = field(value, 'parameters');
        const out = [...this.#start(ts), ...this.#turn(now, ts), ...this.#turns.toolStart(str(value, 'tool_id'), name, params, now, ts)];
        if (name === 'write_todos') {
          const items = toPlanItems(
            list(params, 'todos').map((todo) => ({ text: str(todo, 'description'), status: planStatus(field(todo, 'status')) })),
          );
          out.push(...planUpdate(items).map((body) => at(body, ts)));
        }
        return out;
      }
      case 'tool_result': {
        this.#afterTools = true;
        const ok = str(value, 'status') !== 'error';
        const output = str(value, 'output') ?? str(field(value, 'error'), 'message');
        return [...this.#start(ts), ...this.#turns.toolDone(str(value, 'tool_id'), ok, output, now, ts)];
      }
      case 'error':
        return this.#start(ts);
      case 'result':
        return this.#result(value, now, ts);
      default:
        return undefined;
    }
  }

  end(now: number): ConvertedEvent[] {
    return this.#turns.finish(now, undefined);
  }

  #start(ts: number | undefined): ConvertedEvent[] {
    if (this.#started) return [];
    this.#started = true;
    const session = this.sessionId === undefined ? {} : { sessionId: this.sessionId };
    return [at({ type: 'run.started', agentName: 'gemini-cli', ...session }, ts)];
  }

  #turn(now: number, ts: number | undefined): ConvertedEvent[] {
    if (this.#turns.inTurn && !(this.#afterTools && this.#turns.runningTools === 0)) return [];
    this.#afterTools = false;
    return this.#turns.start(now, ts, this.#model);
  }

  #result(value: unknown, now: number, ts: number | undefined): ConvertedEvent[] {
    const out = [...this.#start(ts), ...this.#turns.finish(now, ts)];
    const stats = field(value, 'stats');
    if (str(value, 'status') === 'error') {
      out.push(at({ type: 'run.error', error: str(field(value, 'error'), 'message') ?? 'error' }, ts));
      return out;
    }
    const tokens = count(stats, 'total_tokens');
    const durationMs = Math.max(0, num(stats, 'duration_ms') ?? 0);
    out.push(at({ type: 'run.finished', outcome: 'completed', durationMs, ...(tokens === undefined ? {} : { tokenCount: tokens }) }, ts));
    return out;
  }
}
