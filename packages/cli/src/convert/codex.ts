import type { ConverterOptions } from './claude-code.js';
import { modelUsage } from './claude-code.js';
import type { ConvertedEvent, StreamConverter } from './converter.js';
import { planStatus, planUpdate, toPlanItems } from './plan-items.js';
import { field, list, num, str } from './read-json.js';
import { at, TurnTracker } from './turn-tracker.js';

const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'collab_tool_call']);
const KNOWN_TYPES = new Set([
  'turn.started',
  'item.started',
  'item.updated',
  'item.completed',
  'item.plan.delta',
  'request_user_input',
  'error',
]);

/**
 * Codex's `codex exec --json` (the `thread.started` … `turn.completed` stream of codex 0.44 and
 * later), and the older `{ id, msg: { type } }` lines of codex 0.2x–0.3x:
 *
 * - `thread.started` → `run.started` (agent `codex`, its `thread_id`);
 * - a model turn (codex reports none inside one `turn`): starts at the first item, and again at the
 *   first item after a finished batch of tool calls;
 * - `command_execution`, `file_change`, `mcp_tool_call`, `web_search` items → `tool.executing` at
 *   `item.started`, `tool.completed` at `item.completed` (`status`, `exit_code`, `aggregated_output`);
 * - `agent_message` → `text.delta`, `reasoning` → `thinking`;
 * - `todo_list` items (`update_plan`), at start, update and completion → `plan.updated`
 *   (`completed: true` → completed, else pending: codex marks nothing as in progress);
 * - `turn.completed` → `run.finished` with its `usage`; `turn.failed` → `run.error`.
 */
export class CodexConverter implements StreamConverter {
  readonly format = 'codex' as const;
  sessionId: string | undefined;
  readonly #turns: TurnTracker;
  #started = false;
  #afterTools = false;
  #lastError: string | undefined;
  #ended = false;
  #startedAt: number | undefined;

  constructor(options: ConverterOptions = {}) {
    this.#turns = new TurnTracker(options.maxTurns, options.redact !== false);
  }

  convert(value: unknown, now: number): ConvertedEvent[] | undefined {
    this.#startedAt ??= now;
    const type = str(value, 'type');
    if (type === 'thread.started') {
      this.sessionId ??= str(value, 'thread_id');
      // The one time a Codex stream carries: a UUIDv7 thread id holds the moment it was made.
      const ts = uuidV7Time(str(value, 'thread_id'));
      if (ts === undefined) return this.#start();
      this.#startedAt = ts;
      return this.#start().map((c) => ({ ...c, ts }));
    }
    if (type === 'turn.completed') return this.#finish(now, field(value, 'usage'));
    if (type === 'turn.failed') return this.#fail(now, str(field(value, 'error'), 'message') ?? 'turn failed');
    if (type === undefined) {
      const msg = field(value, 'msg');
      return msg === undefined ? undefined : this.#legacy(msg, now);
    }
    if (!KNOWN_TYPES.has(type)) return undefined;
    if (type === 'error') {
      this.#lastError = str(value, 'message');
      return [];
    }
    if (!type.startsWith('item.') || type === 'item.plan.delta') return this.#start();
    const item = field(value, 'item');
    const itemType = str(item, 'type');
    if (itemType === undefined) return undefined;
    return [...this.#start(), ...this.#item(type, itemType, item, now)];
  }

  end(now: number): ConvertedEvent[] {
    const out = this.#turns.finish(now, undefined);
    if (this.#lastError !== undefined && this.#started && !this.#ended) {
      this.#ended = true;
      out.push(at({ type: 'run.error', error: this.#lastError }, undefined));
    }
    return out;
  }

  #start(): ConvertedEvent[] {
    if (this.#started) return [];
    this.#started = true;
    const session = this.sessionId === undefined ? {} : { sessionId: this.sessionId };
    return [at({ type: 'run.started', agentName: 'codex', ...session }, undefined)];
  }

  /** A model turn begins with the first item, and with the first item after a batch of tools. */
  #turnFor(isTool: boolean, now: number): ConvertedEvent[] {
    if (this.#turns.inTurn && !(this.#afterTools && this.#turns.runningTools === 0)) {
      if (isTool) this.#afterTools = false;
      return [];
    }
    this.#afterTools = false;
    return this.#turns.start(now, undefined);
  }

  #item(type: string, itemType: string, item: unknown, now: number): ConvertedEvent[] {
    const id = str(item, 'id');
    if (itemType === 'todo_list') {
      const items = toPlanItems(
        list(item, 'items').map((todo) => ({
          text: str(todo, 'text'),
          status: field(todo, 'completed') === true ? 'completed' : 'pending',
        })),
      );
      return [...this.#turnFor(false, now), ...planUpdate(items).map((body) => at(body, undefined))];
    }
    if (TOOL_ITEMS.has(itemType)) {
      const out: ConvertedEvent[] = [];
      const name = toolName(itemType, item);
      if (type === 'item.started' || (type === 'item.completed' && (id === undefined || !this.#turns.isRunning(id)))) {
        out.push(...this.#turnFor(true, now), ...this.#turns.toolStart(id, name, toolArgs(itemType, item), now, undefined));
      }
      if (type === 'item.completed') {
        const status = str(item, 'status');
        const exit = num(item, 'exit_code');
        const ok = status !== 'failed' && status !== 'declined' && (exit === undefined || exit === 0) && field(item, 'error') == null;
        out.push(...this.#turns.toolDone(id, ok, toolOutput(itemType, item), now, undefined, name));
        this.#afterTools = true;
      }
      return out;
    }
    if (type !== 'item.completed') return [];
    const text = str(item, 'text');
    switch (itemType) {
      case 'agent_message':
        return text === undefined || text === '' ? [] : [...this.#turnFor(false, now), at({ type: 'text.delta', text }, undefined)];
      case 'reasoning':
        return text === undefined || text === '' ? [] : [...this.#turnFor(false, now), at({ type: 'thinking', content: text }, undefined)];
      case 'error':
        this.#lastError = str(item, 'message');
        return [];
      default:
        return [];
    }
  }

  #finish(now: number, usage: unknown): ConvertedEvent[] {
    const tokens = modelUsage(usage);
    const out = [...this.#start(), ...this.#turns.finish(now, undefined, tokens)];
    if (this.#ended) return out;
    this.#ended = true;
    const tokenCount = tokens === undefined ? {} : { tokenCount: tokens.inputTokens + tokens.outputTokens };
    out.push(
      at({ type: 'run.finished', outcome: 'completed', durationMs: Math.max(0, now - (this.#startedAt ?? now)), ...tokenCount }, undefined),
    );
    return out;
  }

  #fail(now: number, error: string): ConvertedEvent[] {
    const out = [...this.#start(), ...this.#turns.finish(now, undefined)];
    if (this.#ended) return out;
    this.#ended = true;
    out.push(at({ type: 'run.error', error }, undefined));
    return out;
  }

  /** codex 0.2x–0.3x: `{ id, msg: { type, … } }` (the protocol's `EventMsg`). */
  #legacy(msg: unknown, now: number): ConvertedEvent[] | undefined {
    const type = str(msg, 'type');
    switch (type) {
      case 'session_configured':
        this.sessionId ??= str(msg, 'session_id');
        return this.#start();
      case 'task_started':
        return this.#start();
      case 'agent_message':
      case 'agent_reasoning': {
        const text = str(msg, 'message') ?? str(msg, 'text');
        if (text === undefined || text === '') return this.#start();
        const body = type === 'agent_message' ? ({ type: 'text.delta', text } as const) : ({ type: 'thinking', content: text } as const);
        return [...this.#start(), ...this.#turnFor(false, now), at(body, undefined)];
      }
      case 'exec_command_begin': {
        const command = field(msg, 'command');
        const args = { command: Array.isArray(command) ? command.filter((c) => typeof c === 'string').join(' ') : command };
        return [
          ...this.#start(),
          ...this.#turnFor(true, now),
          ...this.#turns.toolStart(str(msg, 'call_id'), 'shell', args, now, undefined),
        ];
      }
      case 'exec_command_end': {
        this.#afterTools = true;
        const exit = num(msg, 'exit_code');
        const output = str(msg, 'aggregated_output') ?? str(msg, 'stdout') ?? str(msg, 'stderr');
        return this.#turns.toolDone(str(msg, 'call_id'), exit === undefined || exit === 0, output, now, undefined, 'shell');
      }
      case 'plan_update': {
        const items = toPlanItems(
          list(msg, 'plan').map((step) => ({ text: str(step, 'step'), status: planStatus(field(step, 'status')) })),
        );
        return [...this.#start(), ...this.#turnFor(false, now), ...planUpdate(items).map((body) => at(body, undefined))];
      }
      case 'task_complete':
        return this.#finish(now, undefined);
      case 'error':
        return this.#fail(now, str(msg, 'message') ?? 'error');
      case undefined:
        return undefined;
      default:
        // token_count, agent_message_delta, exec_command_output_delta, patch_apply_*, mcp_* …
        return [];
    }
  }
}

/** Epoch ms in a UUIDv7 (its first 48 bits), or undefined for any other id. */
function uuidV7Time(id: string | undefined): number | undefined {
  if (id === undefined || !/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return undefined;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

function toolName(itemType: string, item: unknown): string {
  if (itemType === 'command_execution') return 'shell';
  if (itemType === 'file_change') return 'apply_patch';
  if (itemType === 'mcp_tool_call') return [str(item, 'server'), str(item, 'tool')].filter((s) => s !== undefined).join('.') || 'mcp';
  if (itemType === 'collab_tool_call') return str(item, 'tool') ?? 'collab';
  return itemType;
}

function toolArgs(itemType: string, item: unknown): unknown {
  if (itemType === 'command_execution') return { command: str(item, 'command') };
  if (itemType === 'file_change') return { changes: list(item, 'changes', 100) };
  if (itemType === 'mcp_tool_call') return field(item, 'arguments');
  if (itemType === 'web_search') return { query: str(item, 'query') };
  return undefined;
}

function toolOutput(itemType: string, item: unknown): unknown {
  if (itemType === 'command_execution') return str(item, 'aggregated_output');
  if (itemType === 'file_change')
    return list(item, 'changes', 100)
      .map((c) => `${str(c, 'kind') ?? '?'} ${str(c, 'path') ?? '?'}`)
      .join(', ');
  if (itemType === 'mcp_tool_call') return str(field(item, 'error'), 'message') ?? field(field(item, 'result'), 'content');
  return undefined;
}
