import type { ProgressEvent } from '@headway/protocol';
import { numberOption, stringOption, type OptionSpec, type ParsedCommand } from '../args.js';
import { CliError } from '../cli-error.js';
import { AGENT_FORMATS, type AgentFormat } from '../convert/converter.js';
import { EventStream } from '../convert/event-stream.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { readLines, TOO_LONG } from '../io/line-source.js';

/** The options of the commands that read an agent's stream (`watch`, `convert`). */
export const AGENT_INPUT_OPTIONS: OptionSpec = {
  from: { type: 'string' },
  follow: { type: 'boolean', short: 'f' },
  'max-turns': { type: 'string' },
  'run-id': { type: 'string' },
  'keep-secrets': { type: 'boolean' },
};

/** The `--keep-secrets` line of `watch --help` and `convert --help`. */
export const KEEP_SECRETS_HELP = `--keep-secrets   keep API keys, passwords, Bearer tokens and URL passwords found in tool
                   inputs, results and text (default: each becomes [REDACTED])`;

/** Parses `--from`. */
function formatOption(value: string | undefined): AgentFormat | 'auto' {
  if (value === undefined || value === 'auto') return 'auto';
  if ((AGENT_FORMATS as readonly string[]).includes(value)) return value as AgentFormat;
  throw new CliError('CLI_USAGE', `--from: expected auto, ${AGENT_FORMATS.join(', ')}; got ${JSON.stringify(value)}`);
}

/** An agent's stream as a command reads it: FILE or stdin, turned into headway events. */
export interface AgentInput {
  /** The stream's lines as events, counted and stamped. */
  readonly stream: EventStream;
  /** `--max-turns`, as given. */
  readonly maxTurns: number | undefined;
  /**
   * The events of each line as it is read (following the file with `--follow` until the run
   * ends), then the stream's last ones. A line that is not understood is told once to `warn`
   * as `headway: <FILE>: …`.
   */
  batches(warn: (line: string) => void): AsyncGenerator<readonly ProgressEvent[]>;
}

/**
 * Reads the arguments `watch` and `convert` share: one FILE (or `-`, or none: stdin),
 * `--from`, `--follow`, `--max-turns`, `--run-id`.
 *
 * @throws {CliError} `CLI_USAGE` for more than one input or a bad option value.
 */
export function openAgentInput(
  command: string,
  usage: string,
  parsed: ParsedCommand,
  io: CliIo,
  timing: 'live' | 'stream' = 'live',
): AgentInput {
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new CliError('CLI_USAGE', `${command} reads one input, got ${positionals.length}\nusage: ${usage}`);
  const path = positionals[0] ?? '-';
  const maxTurns = numberOption(values, 'max-turns', undefined, 1);
  const runId = stringOption(values, 'run-id');
  const follow = values.follow === true;
  let warn: ((line: string) => void) | undefined;
  const stream = new EventStream({
    from: formatOption(stringOption(values, 'from')),
    clock: ioClock(io),
    timing,
    redact: values['keep-secrets'] !== true,
    ...(runId === undefined ? {} : { runId }),
    ...(maxTurns === undefined ? {} : { maxTurns: Math.floor(maxTurns) }),
    onWarning: (message) => {
      warn?.(`headway: ${path === '-' ? 'stdin' : path}: ${message}`);
    },
  });
  return {
    stream,
    maxTurns,
    async *batches(onWarning) {
      warn = onWarning;
      for await (const line of readLines(path, {
        follow,
        stop: () => stream.terminal !== undefined,
        clock: ioClock(io),
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      })) {
        yield line === TOO_LONG ? stream.pushTooLong() : stream.push(line);
        // Following a file: the run has ended, so what is written after it is not waited for.
        if (follow && stream.terminal !== undefined) break;
      }
      yield stream.end();
    },
  };
}
