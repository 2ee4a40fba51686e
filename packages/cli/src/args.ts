import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '@headway/protocol/internal';
import { CliError } from './cli-error.js';
import type { CliIo } from './io/cli-io.js';

/** Options of one command, in `util.parseArgs` form. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseCommand} read. */
export interface ParsedCommand {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Reads a command's arguments strictly: an unknown option, a missing value or a stray `--x=`
 * is `CLI_USAGE` (exit 2) with the command's usage line, never a guess.
 */
export function parseCommand(args: readonly string[], options: OptionSpec, usage: string): ParsedCommand {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values, positionals };
  } catch (error) {
    const message = errorMessage(error).replace(/\. To specify a positional argument.*$/s, '');
    throw new CliError('CLI_USAGE', `${message}\nusage: ${usage}`, { cause: error });
  }
}

/** A string option's value, or undefined. */
export function stringOption(values: ParsedCommand['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A positive number option (e.g. `--speed 4`), or `fallback`; anything else is `CLI_USAGE`. */
export function numberOption(values: ParsedCommand['values'], name: string, fallback: number | undefined, min = 0): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || text.trim() === '')
    throw new CliError('CLI_USAGE', `--${name}: expected a number ≥ ${min}, got ${JSON.stringify(text)}`);
  return n;
}

/** Writes a command's `help` to stdout when it was given `--help` (`-h`): true when it was, and the command is done. */
export function showHelp(values: ParsedCommand['values'], help: string, io: CliIo): boolean {
  if (values.help !== true) return false;
  io.stdout.write(`${help}\n`);
  return true;
}
