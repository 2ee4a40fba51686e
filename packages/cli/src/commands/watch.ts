import { parseCommand, showHelp } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { AGENT_FORMATS } from '../convert/converter.js';
import type { CliIo } from '../io/cli-io.js';
import { LiveFeed } from '../live-feed.js';
import { AGENT_INPUT_OPTIONS, KEEP_SECRETS_HELP, openAgentInput } from './agent-input.js';

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
  ${KEEP_SECRETS_HELP}

A line that is not understood is counted and reported once; it never stops the view.

Exit codes: 0 the run finished, 1 it failed or the input ended before it finished (or a file
problem), 2 bad usage, 3 it stopped short (a limit, cancelled), 130 Ctrl-C.

Examples:
  claude -p "fix the failing test" --output-format stream-json --verbose | headway watch
  codex exec --json "add a README" | headway watch --from codex
  gemini -p "summarise src/" --output-format stream-json | headway watch
  headway watch --follow .headway/events.jsonl`;

/** `headway watch`. */
export async function watchCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { ...AGENT_INPUT_OPTIONS, plain: { type: 'boolean' }, live: { type: 'boolean' } }, WATCH_USAGE);
  const { values } = parsed;
  if (showHelp(values, WATCH_HELP, io)) return EXIT.ok;
  const input = openAgentInput('watch', WATCH_USAGE, parsed, io);
  const { stream, maxTurns } = input;
  if (values.plain === true && values.live === true) throw new CliError('CLI_USAGE', `--plain or --live, not both\nusage: ${WATCH_USAGE}`);
  const mode = values.plain === true ? { mode: 'plain' as const } : values.live === true ? { mode: 'live' as const } : {};
  const feed = new LiveFeed({ io, ...mode, ...(maxTurns === undefined ? {} : { maxTurns }) });
  try {
    const warn = (line: string): void => {
      feed.log(line);
    };
    for await (const events of input.batches(warn)) for (const event of events) feed.show(event);
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
