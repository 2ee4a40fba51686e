import type { TerminalStream } from './terminal-stream.js';

/** How {@link CLIReporter} draws: `plain` lines, a `live` block, or `auto` (chosen from the stream and environment). */
export type CLIReporterMode = 'auto' | 'plain' | 'live';

/** Environment variables as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Whether an environment flag is on: set, and not empty, `0` or `false`. */
export function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** `auto` is `plain` when the stream is not a TTY, `CI` is set (and not `0`/`false`), or `TERM=dumb`; `live` otherwise. */
export function resolveMode(mode: CLIReporterMode, stream: TerminalStream, env: Environment): 'plain' | 'live' {
  if (mode !== 'auto') return mode;
  if (stream.isTTY !== true || isSet(env.CI) || env.TERM === 'dumb') return 'plain';
  return 'live';
}

/**
 * Whether the live block uses colours: `NO_COLOR` (non-empty) turns them off, then
 * `FORCE_COLOR` (anything but `0`/`false`) on, else colours when the stream is a TTY and
 * `TERM` is not `dumb`.
 */
export function resolveColor(stream: TerminalStream, env: Environment): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return isSet(env.FORCE_COLOR) || env.FORCE_COLOR === '';
  return stream.isTTY === true && env.TERM !== 'dumb';
}
