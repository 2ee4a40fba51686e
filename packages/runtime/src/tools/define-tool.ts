import { describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { ConfigError } from '../loop/config-error.js';
import type { ToolSpec } from '../provider/provider.js';
import type { ProgressSlice, ToolProgressUpdate } from './tool-progress.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborts when the run is cancelled or hits a hard limit; pass it on to I/O. */
  signal: AbortSignal;
  /** `${runId}:${toolCallId}` — the same when a resumed run re-executes an in-flight call, so side effects can be deduplicated. */
  idempotencyKey: string;
  runId: string;
  toolCallId: string;
  /** Zero-based round of the loop. */
  iteration: number;
  /**
   * The part of the run's 0–100 bar this call's own progress fills: `lo` is where the bar stood
   * when the call started, `hi` where the call's share of its round ends.
   */
  progressSlice: ProgressSlice;
  /**
   * Reports the tool's own progress — a long download, a sub-agent, an MCP server's
   * notifications. `percent` (0–100 of the tool's work) moves the run's bar inside
   * `progressSlice`, never back; a `message` alone changes only the text. Both reach every sink
   * as `progress` events. Never throws; bad values and reports after the call ended are ignored.
   *
   * @example
   * ```ts
   * execute: async ({ urls }, ctx) => {
   *   for (const [i, url] of urls.entries()) {
   *     await fetch(url, { signal: ctx.signal });
   *     ctx.reportProgress({ percent: (100 * (i + 1)) / urls.length, message: `fetched ${url}` });
   *   }
   * }
   * ```
   */
  reportProgress(update: ToolProgressUpdate): void;
}

/** A tool the model can call. Create one with {@link defineTool}. */
export interface Tool<Args = unknown, Result = unknown> {
  readonly name: string;
  readonly description: string;
  /** zod schema of the arguments (validated before `execute`). */
  readonly parameters: z.ZodType<Args>;
  /** JSON Schema of the arguments, as models see it. */
  readonly jsonSchema: Record<string, unknown>;
  /** Offered in `safe-chat` capability mode (read-only, no side effects). */
  readonly safe: boolean;
  /**
   * True for a tool that waits on something (a job's status, a queue): calling it again and again
   * with the same result is waiting, not a loop, so stall detection leaves it out.
   */
  readonly poll?: boolean;
  execute(args: Args, ctx: ToolContext): Result | Promise<Result>;
}

/** The definition passed to {@link defineTool}. */
export interface ToolDefinition<Args, Result> {
  /** 1–64 characters: letters, digits, `_` and `-` (what every provider accepts). */
  name: string;
  description: string;
  parameters: z.ZodType<Args>;
  /** Mark read-only tools `safe` to offer them in `safe-chat` mode (default false). */
  safe?: boolean;
  /** The tool waits on something (default false): repeating it is not reported as a stall. */
  poll?: boolean;
  execute(args: Args, ctx: ToolContext): Result | Promise<Result>;
}

const definitionSchema = z.object({
  name: z.string().regex(/^[\w-]{1,64}$/, 'must be 1–64 letters, digits, "_" or "-"'),
  description: z.string().min(1),
  parameters: z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'must be a zod schema'),
  safe: z.boolean().optional(),
  poll: z.boolean().optional(),
  execute: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', 'must be a function'),
});

/**
 * Defines a tool: a name, a description, a zod schema of its arguments and the function
 * that runs it. Arguments are validated before `execute`; invalid ones, and anything
 * `execute` throws, go back to the model as a tool error instead of crashing the run.
 *
 * @throws {ConfigError} `RUNTIME_INVALID_TOOL` naming the bad field.
 * @example
 * ```ts
 * const fileRead = defineTool({
 *   name: 'file_read',
 *   description: 'Read a UTF-8 text file',
 *   parameters: z.object({ path: z.string() }),
 *   safe: true,
 *   execute: ({ path }) => readFile(path, 'utf8'),
 * });
 * ```
 */
export function defineTool<Args, Result>(definition: ToolDefinition<Args, Result>): Tool<Args, Result> {
  const checked = definitionSchema.safeParse(definition);
  if (!checked.success) {
    const issues = toValidationIssues(checked.error);
    throw new ConfigError(
      'RUNTIME_INVALID_TOOL',
      `Invalid tool definition${typeof definition.name === 'string' ? ` "${definition.name}"` : ''}: ${describeIssues(issues)}`,
      { issues },
    );
  }
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = z.toJSONSchema(definition.parameters, { io: 'input', unrepresentable: 'any' });
  } catch (error) {
    throw new ConfigError('RUNTIME_INVALID_TOOL', `Tool "${definition.name}": its parameters cannot be described as JSON Schema`, {
      cause: error,
    });
  }
  delete jsonSchema.$schema;
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    jsonSchema,
    safe: definition.safe ?? false,
    poll: definition.poll ?? false,
    execute: (args, ctx) => definition.execute(args, ctx),
  };
}

/** The {@link ToolSpec} a provider sends to the model. */
export function toolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.jsonSchema };
}
