import type { ChatMessage, CompletionRequest, ToolCall } from '@headway/runtime';
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ThinkingConfigParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ThinkingBlock } from './message-assembler.js';
import { isPlainObject } from './wire-mapping.js';

/** What {@link toMessagesRequest} needs besides the runtime's request. */
export interface MessagesRequestOptions {
  model: string;
  maxTokens: number;
  thinking: ThinkingConfigParam | undefined;
  promptCaching: boolean;
  /** The thinking blocks that came with a tool call, by tool-call id (they must go back with it). */
  thinkingFor: (toolCallId: string) => readonly ThinkingBlock[] | undefined;
}

/** Tool-use ids the API accepts: letters, digits, `_` and `-` (ids from other providers may differ). */
function toolUseId(id: string): string {
  const clean = id.replace(/[^\w-]/g, '_');
  return clean === '' ? 'toolu_' : clean;
}

/** Tool input is always a JSON object on the wire; arguments another provider kept as text are parsed when they can be. */
function toolInput(args: unknown): Record<string, unknown> {
  if (isPlainObject(args)) return args;
  if (typeof args === 'string') {
    try {
      const parsed: unknown = JSON.parse(args);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: the model gets an empty input, as the tool saw none it could use.
    }
  }
  return {};
}

function assistantBlocks(
  content: string,
  toolCalls: readonly ToolCall[],
  thinkingFor: MessagesRequestOptions['thinkingFor'],
): ContentBlockParam[] {
  const first = toolCalls[0];
  const thinking = first === undefined ? [] : (thinkingFor(first.id) ?? []);
  const blocks: ContentBlockParam[] = thinking.map((b) => ({ ...b }));
  // The API rejects empty text blocks.
  if (content !== '') blocks.push({ type: 'text', text: content });
  for (const call of toolCalls) blocks.push({ type: 'tool_use', id: toolUseId(call.id), name: call.name, input: toolInput(call.args) });
  return blocks;
}

/** Puts tool results first in a user turn, as the API requires, keeping the order otherwise. */
function userOrder(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

/**
 * The conversation in the Messages API's shape: system messages become the `system` prompt;
 * tool results become `tool_result` blocks of a user turn; consecutive turns of one role are
 * merged (tool results first); empty turns are dropped.
 */
function toMessages(
  messages: readonly ChatMessage[],
  thinkingFor: MessagesRequestOptions['thinkingFor'],
): { system: string; messages: MessageParam[] } {
  const system: string[] = [];
  const turns: { role: 'user' | 'assistant'; blocks: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') system.push(message.content);
        break;
      case 'user':
        add('user', message.content === '' ? [] : [{ type: 'text', text: message.content }]);
        break;
      case 'tool': {
        const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toolUseId(message.toolCallId) };
        if (message.content !== '') result.content = message.content;
        add('user', [result]);
        break;
      }
      case 'assistant':
        add('assistant', assistantBlocks(message.content, message.toolCalls ?? [], thinkingFor));
        break;
    }
  }
  return {
    system: system.join('\n\n'),
    messages: turns.map((t): MessageParam => ({ role: t.role, content: t.role === 'user' ? userOrder(t.blocks) : t.blocks })),
  };
}

/**
 * Whether the request is in the middle of a tool loop whose last assistant turn has no thinking
 * block. With thinking on, the API rejects such a request ("a final assistant message must start
 * with a thinking block"), which happens when the thinking was not kept (another provider made
 * the call, or the run was resumed in a new process): that one request goes without thinking.
 */
function lostThinking(messages: readonly MessageParam[]): boolean {
  const last = messages.at(-1);
  const assistant = messages.at(-2);
  if (last?.role !== 'user' || assistant?.role !== 'assistant' || typeof last.content === 'string' || typeof assistant.content === 'string')
    return false;
  if (!last.content.some((b) => b.type === 'tool_result')) return false;
  const first = assistant.content[0];
  return first === undefined || (first.type !== 'thinking' && first.type !== 'redacted_thinking');
}

/**
 * The runtime's request as a Messages API request body. `temperature` is not sent: API version
 * 2026-10-21 has no such parameter.
 */
export function toMessagesRequest(request: CompletionRequest, options: MessagesRequestOptions): MessageCreateParamsNonStreaming {
  const { system, messages } = toMessages(request.messages, options.thinkingFor);
  const params: MessageCreateParamsNonStreaming = { model: request.model ?? options.model, max_tokens: options.maxTokens, messages };
  if (system !== '') params.system = system;
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t): Tool => ({
      name: t.name,
      description: t.description,
      input_schema: { ...t.parameters, type: 'object' },
    }));
  } else {
    // The API rejects tool_use blocks in a request that defines no tools (the runtime asks for
    // its report without tools): the tools the conversation used are declared, and none may be called.
    const used = new Set(
      messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])))),
    );
    if (used.size > 0) {
      params.tools = [...used].map((name): Tool => ({
        name,
        description: 'Not available in this request.',
        input_schema: { type: 'object' },
      }));
      params.tool_choice = { type: 'none' };
    }
  }
  if (options.thinking !== undefined && !lostThinking(messages)) params.thinking = options.thinking;
  // Marks the last cacheable block: each request of a tool loop then reads the conversation so far from the cache.
  if (options.promptCaching) params.cache_control = { type: 'ephemeral' };
  return params;
}
