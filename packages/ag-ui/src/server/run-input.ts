import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { describeIssues, toValidationIssues } from '@headway/protocol';
import { describeThrown } from '@headway/protocol/internal';
import { AgUiError } from '../ag-ui-error.js';

/**
 * How deep a request body may nest (objects and arrays). The body is echoed in `RUN_STARTED`
 * and written with `JSON.stringify`, which recurses: a body nested thousands deep would
 * overflow the stack there, after the run was registered.
 */
const MAX_INPUT_DEPTH = 100;

/**
 * The path of the first place `value` nests deeper than `max` levels, or `undefined`. Walks
 * with its own stack, so a value nested 100,000 deep costs one pass and no recursion.
 */
function tooDeepAt(value: unknown, max: number): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > max) return item.path;
    // Only the first key path is kept in full; deeper levels are not named one by one.
    const named = item.depth < 8;
    if (Array.isArray(item.value)) {
      for (let i = item.value.length - 1; i >= 0; i--) {
        stack.push({ value: item.value[i], depth, path: named ? `${item.path}[${i}]` : item.path });
      }
    } else {
      for (const [key, child] of Object.entries(item.value)) {
        stack.push({ value: child, depth, path: named ? (item.path === '' ? key : `${item.path}.${key}`) : item.path });
      }
    }
  }
  return undefined;
}

/**
 * Validates a request body against `@ag-ui/core`'s own `RunAgentInput` schema, after checking
 * that it nests no deeper than 100 levels.
 *
 * @throws {AgUiError} `AG_UI_INVALID_INPUT` with the schema's issues (path and message).
 */
export function parseRunAgentInput(value: unknown): RunAgentInput {
  let parsed: ReturnType<typeof RunAgentInputSchema.safeParse>;
  try {
    const deep = tooDeepAt(value, MAX_INPUT_DEPTH);
    if (deep !== undefined) {
      const issues = [{ path: deep, message: `nested deeper than ${MAX_INPUT_DEPTH} levels` }];
      throw new AgUiError('AG_UI_INVALID_INPUT', `Invalid RunAgentInput: ${describeIssues(issues)}`, { issues });
    }
    parsed = RunAgentInputSchema.safeParse(value);
  } catch (error) {
    if (AgUiError.isInstance(error)) throw error;
    // A value that is not plain data (a throwing getter, a revoked proxy) cannot be read at all.
    const issues = [{ path: '', message: `could not be read: ${describeThrown(error, 200)}` }];
    throw new AgUiError('AG_UI_INVALID_INPUT', `Invalid RunAgentInput: ${describeIssues(issues)}`, { issues, cause: error });
  }
  if (parsed.success) return parsed.data as RunAgentInput;
  const issues = toValidationIssues(parsed.error);
  throw new AgUiError('AG_UI_INVALID_INPUT', `Invalid RunAgentInput: ${describeIssues(issues)}`, { issues });
}

/** What a reattach asks for: the run, and optionally the `seq` of the last event the client saw. */
export interface ReattachRequest {
  runId: string;
  lastSeq: number | undefined;
}

/**
 * The reattach part of a `RunAgentInput`: `forwardedProps.headway.reattach` is `true` or
 * `{ lastSeq }`; `undefined` when the input asks for a new run.
 *
 * @throws {AgUiError} `AG_UI_INVALID_INPUT` when `reattach` has another shape.
 */
export function reattachOf(input: RunAgentInput): ReattachRequest | undefined {
  try {
    return readReattach(input);
  } catch (error) {
    if (AgUiError.isInstance(error)) throw error;
    const issues = [{ path: 'forwardedProps.headway.reattach', message: `could not be read: ${describeThrown(error, 200)}` }];
    throw new AgUiError('AG_UI_INVALID_INPUT', `Invalid reattach request: ${describeIssues(issues)}`, { issues, cause: error });
  }
}

function readReattach(input: RunAgentInput): ReattachRequest | undefined {
  const props: unknown = input.forwardedProps;
  if (typeof props !== 'object' || props === null) return undefined;
  const headway: unknown = (props as Record<string, unknown>).headway;
  if (typeof headway !== 'object' || headway === null) return undefined;
  const reattach: unknown = (headway as Record<string, unknown>).reattach;
  if (reattach === undefined || reattach === false) return undefined;
  if (reattach === true) return { runId: input.runId, lastSeq: undefined };
  const lastSeq: unknown = typeof reattach === 'object' && reattach !== null ? (reattach as Record<string, unknown>).lastSeq : Number.NaN;
  if (lastSeq === undefined) return { runId: input.runId, lastSeq: undefined };
  if (typeof lastSeq === 'number' && Number.isSafeInteger(lastSeq) && lastSeq >= 0) return { runId: input.runId, lastSeq };
  const issues = [{ path: 'forwardedProps.headway.reattach', message: 'expected true or { lastSeq?: a non-negative integer }' }];
  throw new AgUiError('AG_UI_INVALID_INPUT', `Invalid reattach request: ${describeIssues(issues)}`, { issues });
}
