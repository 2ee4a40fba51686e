import { readFile } from 'node:fs/promises';
import { describeIssues, toValidationIssues } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import type { z } from 'zod';
import { CliError } from '../cli-error.js';

/** Largest file read whole (reports, event logs to replay): 256 MiB. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The text of a file, or of stdin for `-`.
 *
 * @throws {CliError} `CLI_FILE_NOT_FOUND`, `CLI_FILE_UNREADABLE` (also for a file over {@link MAX_INPUT_BYTES}).
 */
export async function readInput(path: string): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length;
      if (size > MAX_INPUT_BYTES) throw new CliError('CLI_FILE_UNREADABLE', `stdin: more than ${MAX_INPUT_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    const buffer = await readFile(path);
    if (buffer.length > MAX_INPUT_BYTES) throw new CliError('CLI_FILE_UNREADABLE', `${path}: more than ${MAX_INPUT_BYTES} bytes`);
    return buffer.toString('utf8');
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new CliError('CLI_FILE_NOT_FOUND', `${path}: no such file`, { cause: error });
    throw new CliError('CLI_FILE_UNREADABLE', `${path}: cannot be read (${String(code ?? error)})`, { cause: error });
  }
}

/** `path:line:column` of a character offset. */
function lineAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * A JSON file read and checked against `schema`.
 *
 * @throws {CliError} `CLI_CORRUPT_FILE` naming `path:line:column` for JSON that does not parse,
 * or the fields that do not match.
 */
export function parseJsonFile<T>(path: string, text: string, schema: z.ZodType<T>, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = errorMessage(error);
    const offset = jsonErrorOffset(text, message);
    const where = offset === undefined ? undefined : lineAt(text, offset);
    throw new CliError('CLI_CORRUPT_FILE', `${path}${where === undefined ? '' : `:${where.line}:${where.column}`}: not JSON (${message})`, {
      cause: error,
    });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error);
  throw new CliError('CLI_CORRUPT_FILE', `${path}: not ${what}: ${describeIssues(issues)}`, { issues });
}

/** JSON.parse's complaint about `text` is only that it ended early (a valid prefix of a document). */
function endsEarly(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/end of JSON input/i.test(message)) return true;
    const at = /at position (\d+)/.exec(message)?.[1];
    return at !== undefined && Number(at) >= text.trimEnd().length;
  }
}

/**
 * Where JSON text first goes wrong: the position V8 names, or (when its message names none, as
 * Node 20's often do not) the shortest prefix that is not a valid start of a document, found by
 * bisection. Undefined for text over 4 MiB.
 */
function jsonErrorOffset(text: string, message: string): number | undefined {
  const at = /at position (\d+)/.exec(message)?.[1];
  if (at !== undefined) return Number(at);
  if (text.length > 4 * 1024 * 1024) return undefined;
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (endsEarly(text.slice(0, mid))) good = mid;
    else bad = mid;
  }
  return bad - 1;
}
