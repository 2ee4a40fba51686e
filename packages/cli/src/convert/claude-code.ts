import type { ModelUsage } from '@headway/protocol';
import type { ConvertedEvent, StreamConverter } from './converter.js';
import { planStatus, planUpdate, toPlanItems } from './plan-items.js';
import { count, field, isoTime, list, num, str, sumCounts } from './read-json.js';
import { at, TurnTracker } from './turn-tracker.js';

/** Options shared by the agent-stream converters. */
export interface ConverterOptions {
  /** The run's turn cap when known (e.g. `claude --max-turns`): turns also become `iteration` events. */
  maxTurns?: number;
  /** `false` keeps secret-shaped text in tool-result previews (`--keep-secrets`); default on. */
  redact?: boolean;
}

/**
 * Claude Code's `claude -p … --output-format stream-json --verbose` (and the Agent SDK's messages):
 *
 * - `system` `init` → `run.started` (agent `claude-code`, its `session_id`);
 * - each `assistant` message (a new `message.id`) → a turn (`step.started`/`step.finished` with the
 *   message's `usage`); its content blocks: `text` → `text.delta`, `thinking` → `thinking`,
 *   `tool_use` → `tool.executing`, and a `TodoWrite` call → `plan.updated` right after it;
 * - `user` `tool_result` blocks → `tool.completed` (`is_error` → not ok, the content as preview);
 * - `result` → `run.finished` (`success`; `error_max_turns` as outcome `limit`) with the tokens, the
 *   cost in the summary, or `run.error`.
 *
 * `stream_event` lines (`--include-partial-messages`) and other `system` subtypes are understood and
 * skipped: the whole messages that follow carry the same content.
 */
export class ClaudeCodeConverter implements StreamConverter {
  readonly format = 'claude-code' as const;
  sessionId: string | undefined;
  readonly #turns: TurnTracker;
  #messageId: string | undefined;
  #started = false;

  constructor(options: ConverterOptions = {}) {
    this.#turns = new TurnTracker(options.maxTurns, options.redact !== false);
  }

  convert(value: unknown, lineNow: number): ConvertedEvent[] | undefined {
    // Claude Code's session transcripts carry an ISO `timestamp` per line; its stream-json does not.
    const ts = isoTime(value, 'timestamp');
    const out = this.#convert(value, ts ?? lineNow);
    return ts === undefined || out === undefined ? out : out.map((c) => (c.ts === undefined ? { ...c, ts } : c));
  }

  #convert(value: unknown, now: number): ConvertedEvent[] | undefined {
    const type = str(value, 'type');
    const session = str(value, 'session_id');
    if (session !== undefined && this.sessionId === undefined) this.sessionId = session;
    switch (type) {
      case 'system':
        if (str(value, 'subtype') !== 'init') return [];
        return this.#start();
      case 'assistant':
        return this.#assistant(field(value, 'message'), now);
      case 'user':
        return this.#user(field(value, 'message'), now);
      case 'result':
        return this.#result(value, now);
      case 'stream_event':
        return [];
      default:
        return undefined;
    }
  }

  end(now: number): ConvertedEvent[] {
    return this.#turns.finish(now, undefined);
  }

  /** `run.started` once: at `system` `init`, or at the first message of a stream that lacks it. */
  #start(): ConvertedEvent[] {
    if (this.#started) return [];
    this.#started = true;
    const session = this.sessionId === undefined ? {} : { sessionId: this.sessionId };
    return [at({ type: 'run.started', agentName: 'claude-code', ...session }, undefined)];
  }

  #assistant(message: unknown, now: number): ConvertedEvent[] | undefined {
    const content = field(message, 'content');
    if (!Array.isArray(content)) return undefined;
    const out = this.#start();
    const id = str(message, 'id');
    if (!this.#turns.inTurn || (id !== undefined && id !== this.#messageId)) {
      out.push(...this.#turns.start(now, undefined, str(message, 'model')));
      this.#messageId = id;
    }
    for (const block of content.slice(0, 1000)) {
      switch (str(block, 'type')) {
        case 'text': {
          const text = str(block, 'text');
          if (text !== undefined && text !== '') out.push(at({ type: 'text.delta', text }, undefined));
          break;
        }
        case 'thinking': {
          const thinking = str(block, 'thinking');
          if (thinking !== undefined && thinking !== '') out.push(at({ type: 'thinking', content: thinking }, undefined));
          break;
        }
        case 'tool_use': {
          const name = str(block, 'name') ?? 'tool';
          const input = field(block, 'input');
          out.push(...this.#turns.toolStart(str(block, 'id'), name, input, now, undefined));
          if (name === 'TodoWrite') {
            const items = toPlanItems(
              list(input, 'todos').map((todo) => ({
                id: str(todo, 'id'),
                text: str(todo, 'content'),
                status: planStatus(field(todo, 'status')),
              })),
            );
            out.push(...planUpdate(items).map((body) => at(body, undefined)));
          }
          break;
        }
        default:
          break;
      }
    }
    return out;
  }

  #user(message: unknown, now: number): ConvertedEvent[] | undefined {
    const content = field(message, 'content');
    // A prompt sent as text is a user message too; only tool results show progress.
    if (typeof content === 'string') return [];
    if (!Array.isArray(content)) return undefined;
    const out: ConvertedEvent[] = [];
    for (const block of content.slice(0, 1000)) {
      if (str(block, 'type') !== 'tool_result') continue;
      const ok = field(block, 'is_error') !== true;
      out.push(...this.#turns.toolDone(str(block, 'tool_use_id'), ok, resultText(field(block, 'content')), now, undefined));
    }
    return out;
  }

  #result(value: unknown, now: number): ConvertedEvent[] {
    const usage = modelUsage(field(value, 'usage'));
    const out = this.#start();
    out.push(...this.#turns.finish(now, undefined));
    const subtype = str(value, 'subtype') ?? 'success';
    const durationMs = Math.max(0, num(value, 'duration_ms') ?? 0);
    const cost = num(value, 'total_cost_usd');
    const turns = num(value, 'num_turns');
    const facts = [turns === undefined ? undefined : `${turns} turns`, cost === undefined ? undefined : `$${cost.toFixed(4)}`]
      .filter((f) => f !== undefined)
      .join(', ');
    const tokenCount = usage === undefined ? undefined : usage.inputTokens + usage.outputTokens;
    const tokens = tokenCount === undefined ? {} : { tokenCount };
    if (subtype === 'success' && field(value, 'is_error') !== true) {
      const text = str(value, 'result');
      const summary = [text?.slice(0, 2000), facts === '' ? undefined : `(${facts})`].filter((s) => s !== undefined && s !== '').join(' ');
      out.push(
        at({ type: 'run.finished', outcome: 'completed', durationMs, ...tokens, ...(summary === '' ? {} : { summary }) }, undefined),
      );
    } else if (subtype === 'error_max_turns') {
      out.push(
        at(
          {
            type: 'run.finished',
            outcome: 'limit',
            durationMs,
            ...tokens,
            summary: `stopped at the turn limit${facts === '' ? '' : ` (${facts})`}`,
          },
          undefined,
        ),
      );
    } else {
      const errors = list(value, 'errors', 5).filter((e): e is string => typeof e === 'string');
      const error = errors.length > 0 ? errors.join('; ') : (str(value, 'result') ?? subtype);
      out.push(at({ type: 'run.error', error: error.slice(0, 2000) }, undefined));
    }
    return out;
  }
}

/** A tool_result's content: a string, or text blocks joined. */
function resultText(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts = content
    .slice(0, 100)
    .map((block) => str(block, 'text'))
    .filter((t): t is string => t !== undefined);
  return texts.length > 0 ? texts.join('\n') : content;
}

/** Anthropic `usage` (input, output, cache read/creation) as protocol token counts. */
export function modelUsage(usage: unknown): ModelUsage | undefined {
  const input = count(usage, 'input_tokens');
  const output = count(usage, 'output_tokens');
  if (input === undefined && output === undefined) return undefined;
  const cacheRead = count(usage, 'cache_read_input_tokens') ?? count(usage, 'cached_input_tokens') ?? 0;
  const cacheWrite = count(usage, 'cache_creation_input_tokens') ?? 0;
  const inputTokens = sumCounts(input ?? 0, cacheRead, cacheWrite);
  // Counts too large to add up are not counts a model reported: no usage rather than a wrong one.
  if (inputTokens === undefined || sumCounts(inputTokens, output ?? 0) === undefined) return undefined;
  return { inputTokens, outputTokens: output ?? 0 };
}
