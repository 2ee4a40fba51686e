import type { AgentFormat } from './converter.js';
import { readHeadwayEvent } from './headway.js';
import { field, str } from './read-json.js';

const CLAUDE_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event']);
const GEMINI_TYPES = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

/**
 * Which stream a parsed line belongs to, or undefined when the line alone does not tell.
 * headway events carry `runId`/`seq`/`ts`; Claude Code lines a `session_id` or a `message`
 * object; gemini-cli lines an ISO `timestamp`; Codex lines a dotted `type` (`thread.started`,
 * `item.completed` …) or, before codex 0.44, a `msg` object.
 */
export function detectFormat(value: unknown): AgentFormat | undefined {
  if (readHeadwayEvent(value) !== undefined) return 'headway';
  const type = str(value, 'type');
  if (type === undefined) return typeof str(field(value, 'msg'), 'type') === 'string' ? 'codex' : undefined;
  if (/^(?:thread|turn|item)\./.test(type)) return 'codex';
  if (GEMINI_TYPES.has(type) && str(value, 'timestamp') !== undefined && field(value, 'message') === undefined) return 'gemini';
  if (CLAUDE_TYPES.has(type) && (str(value, 'session_id') !== undefined || typeof field(value, 'message') === 'object'))
    return 'claude-code';
  return undefined;
}
