import { ConfigError } from '../loop/config-error.js';
import type { Tool } from '../tools/define-tool.js';

/**
 * A named capability mode: which tools the model is offered and how the system prompt reads.
 * The four built-in modes are presets of this shape; add your own with `deps.capabilityModes`.
 *
 * @example
 * ```ts
 * const readOnly: CapabilityModeDefinition = {
 *   name: 'read-only',
 *   tools: (tool) => tool.safe && tool.name.startsWith('read_'),
 *   systemPrompt: (base) => `${base}\nYou may only read; never change anything.`,
 * };
 * ```
 */
export interface CapabilityModeDefinition {
  /** What `config.capabilityMode` names it by. */
  readonly name: string;
  /** Whether a registered tool is offered in this mode. */
  readonly tools: (tool: Tool) => boolean;
  /** The system prompt in this mode, from the configured one (default: unchanged). */
  readonly systemPrompt?: (base: string) => string;
}

/** The prompt lines a `discord` mode adds: a chat channel, no desktop or GUI. */
const DISCORD_PROMPT = [
  'You are answering in a Discord chat channel.',
  'Keep replies short and use only the Markdown Discord renders (bold, italics, lists, code blocks).',
  'Answer in text only, in the channel.',
].join('\n');

/** The prompt line a `no-tools` mode adds. */
const NO_TOOLS_PROMPT = 'You have no tools in this conversation: answer from what you know and what the user tells you.';

/** The name of a built-in capability mode. */
export type BuiltInCapabilityMode = 'full' | 'safe-chat' | 'discord' | 'no-tools';

/**
 * The seed's four modes: `full` (every tool), `safe-chat` (tools marked `safe`), `discord` (tools
 * marked `safe`, a prompt for a chat channel with no desktop or GUI references) and `no-tools`.
 */
export const BUILT_IN_CAPABILITY_MODES: Readonly<Record<BuiltInCapabilityMode, CapabilityModeDefinition>> = {
  full: { name: 'full', tools: () => true },
  'safe-chat': { name: 'safe-chat', tools: (tool) => tool.safe },
  discord: { name: 'discord', tools: (tool) => tool.safe, systemPrompt: (base) => `${base}\n\n${DISCORD_PROMPT}` },
  'no-tools': { name: 'no-tools', tools: () => false, systemPrompt: (base) => `${base}\n\n${NO_TOOLS_PROMPT}` },
};

/**
 * The modes a runtime knows: the built-in ones, then the user's (a user's mode may replace a
 * built-in one of the same name).
 *
 * @throws {ConfigError} `RUNTIME_INVALID_CONFIG` naming `capabilityModes[i]` when one is malformed or named twice.
 */
export function capabilityModeTable(custom: readonly CapabilityModeDefinition[] = []): Map<string, CapabilityModeDefinition> {
  const table = new Map<string, CapabilityModeDefinition>(Object.entries(BUILT_IN_CAPABILITY_MODES));
  const seen = new Set<string>();
  custom.forEach((mode: unknown, i) => {
    const bad = (message: string): ConfigError =>
      new ConfigError('RUNTIME_INVALID_CONFIG', `Invalid agent deps: capabilityModes[${i}]: ${message}`, {
        issues: [{ path: `capabilityModes[${i}]`, message }],
      });
    if (typeof mode !== 'object' || mode === null) throw bad('expected { name, tools, systemPrompt? }');
    const { name, tools, systemPrompt } = mode as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') throw bad('name: expected a non-empty string');
    if (typeof tools !== 'function') throw bad('tools: expected a function (tool) => boolean');
    if (systemPrompt !== undefined && typeof systemPrompt !== 'function') throw bad('systemPrompt: expected a function (base) => string');
    if (seen.has(name)) throw bad(`a mode named "${name}" is already given`);
    seen.add(name);
    table.set(name, mode as CapabilityModeDefinition);
  });
  return table;
}
