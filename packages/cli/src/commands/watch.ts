import { numberOption, parseCommand, stringOption } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { AGENT_FORMATS, type AgentFormat } from '../convert/converter.js';
import { EventStream } from '../convert/event-stream.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { readLines, TOO_LONG } from '../io/line-source.js';
import { LiveFeed } from '../live-feed.js';

const WATCH_USAGE = 'headway watch [FILE|-] [--from auto|headway|claude-code|codex|gemini] [--follow] [--max-turns N] [--plain|--live]';

const WATCH_HELP = `${WATCH_USAGE}

Shows a live progress view of a run from its JSON-lines stream: a headway event log, or the
stream of Claude Code, Codex or gemini-cli in headless mode. Reads FILE (or stdin: - or no FILE).
The view goes to stderr: a live block on a terminal, plain lines otherwise.

Options:
  --from FORMAT    auto (default: found from the first lines), headway, claude-code, codex, gemini
  --follow, -f     keep reading FILE as it grows, until the run ends (Ctrl-C stops)
  --max-turns N    the run's turn cap, when you know it: turns count as iterations, the bar uses it
  --plain          plain lines even on a terminal
  --live           the live block even when stderr is not a terminal (a pane that reads a pipe)
  --run-id ID      runId of the events (default: the stream's session or thread id)

A line that is not understood is counted and reported once; it never stops the view.

Exit codes: 0 the run finished, 1 it failed or the input ended before it finished (or a file
problem), 2 bad usage, 3 it stopped short (a limit, cancelled), 130 Ctrl-C.

Examples:
  claude -p "fix the failing test" --output-format stream-json --verbose | headway watch
  codex exec --json "add a README" | headway watch --from codex
  gemini -p "summarise src/" --output-format stream-json | headway watch
  headway watch --follow .headway/events.jsonl`;

/** Parses `--from`. */
export function formatOption(value: string | undefined): AgentFormat | 'auto' {
  if (value === undefined || value === 'auto') return 'auto';
  if ((AGENT_FORMATS as readonly string[]).includes(value)) return value as AgentFormat;
  throw new CliError('CLI_USAGE', `--from: expected auto, ${AGENT_FORMATS.join(', ')}; got ${JSON.stringify(value)}`);
}

/** `headway watch`. */
export async function watchCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      from: { type: 'string' },
      follow: { type: 'boolean', short: 'f' },
      'max-turns': { type: 'string' },
      plain: { type: 'boolean' },
      live: { type: 'boolean' },
      'run-id': { type: 'string' },
    },
    WATCH_USAGE,
  );
  if (values.help === true) {
    io.stdout.write(`${WATCH_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new CliError('CLI_USAGE', `watch reads one input, got ${positionals.length}\nusage: ${WATCH_USAGE}`);
  const path = positionals[0] ?? '-';
  const maxTurns = numberOption(values, 'max-turns', undefined, 1);
  const runId = stringOption(values, 'run-id');
  if (values.plain === true && values.live === true) throw new CliError('CLI_USAGE', `--plain or --live, not both\nusage: ${WATCH_USAGE}`);
  const mode = values.plain === true ? { mode: 'plain' as const } : values.live === true ? { mode: 'live' as const } : {};
  const feed = new LiveFeed({ io, ...mode, ...(maxTurns === undefined ? {} : { maxTurns }) });
  const stream = new EventStream({
    from: formatOption(stringOption(values, 'from')),
    clock: ioClock(io),
    ...(runId === undefined ? {} : { runId }),
    ...(maxTurns === undefined ? {} : { maxTurns: Math.floor(maxTurns) }),
    onWarning: (message) => {
      feed.log(`headway: ${path === '-' ? 'stdin' : path}: ${message}`);
    },
  });
  try {
    for await (const line of readLines(path, {
      follow: values.follow === true,
      stop: () => stream.terminal !== undefined,
      clock: ioClock(io),
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    })) {
      const events = line === TOO_LONG ? stream.pushTooLong() : stream.push(line);
      for (const event of events) feed.show(event);
      if (stream.terminal !== undefined && values.follow === true) break;
    }
    for (const event of stream.end()) feed.show(event);
  } catch (error) {
    feed.finish();
    throw error;
  }
  if (stream.notUnderstood > 0) feed.log(`headway: ${stream.notUnderstood} of ${stream.lines} lines not understood`);
  const code = feed.finish();
  if (feed.terminal === undefined && io.signal?.aborted === true) return EXIT.interrupted;
  if (feed.terminal === undefined) {
    io.stderr.write(`headway: the input ended before the run finished (${stream.lines} lines read)\n`);
  }
  if (stream.format === undefined && stream.lines > 0) {
    io.stderr.write(`headway: no line was in a known format (${AGENT_FORMATS.join(', ')}); try --from\n`);
  }
  return code;
}
