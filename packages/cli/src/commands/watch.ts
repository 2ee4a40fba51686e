import { parseCommand, showHelp } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { AGENT_FORMATS } from '../convert/converter.js';
import type { CliIo } from '../io/cli-io.js';
import { LiveFeed } from '../live-feed.js';
import { AGENT_INPUT_OPTIONS, KEEP_SECRETS_HELP, openAgentInput } from './agent-input.js';
import { describeStall } from '@headway/protocol/internal';
import { createWatchStall } from './watch-stall.js';

const WATCH_USAGE =
  'headway watch [FILE|-] [--from auto|headway|claude-code|codex|gemini] [--follow] [--max-turns N] [--plain|--live] [--on-stall warn|exit]';

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
  --on-stall WHAT  warn (default): show "stuck? ls src/work 5× with the same result" and go on;
                   exit: stop watching and exit 3 on the first stall

A line that is not understood is counted and reported once; it never stops the view.

Exit codes: 0 the run finished, 1 it failed or the input ended before it finished (or a file
problem), 2 bad usage, 3 it stopped short (a limit, cancelled, or a stall with --on-stall exit),
130 Ctrl-C.

Examples:
  claude -p "fix the failing test" --output-format stream-json --verbose | headway watch
  codex exec --json "add a README" | headway watch --from codex
  gemini -p "summarise src/" --output-format stream-json | headway watch
  headway watch --follow .headway/events.jsonl`;

/** `headway watch`. */
export async function watchCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    args,
    { ...AGENT_INPUT_OPTIONS, plain: { type: 'boolean' }, live: { type: 'boolean' }, 'on-stall': { type: 'string' } },
    WATCH_USAGE,
  );
  const { values } = parsed;
  if (showHelp(values, WATCH_HELP, io)) return EXIT.ok;
  const input = openAgentInput('watch', WATCH_USAGE, parsed, io);
  const { stream, maxTurns } = input;
  if (values.plain === true && values.live === true) throw new CliError('CLI_USAGE', `--plain or --live, not both\nusage: ${WATCH_USAGE}`);
  const mode = values.plain === true ? { mode: 'plain' as const } : values.live === true ? { mode: 'live' as const } : {};
  const onStall = values['on-stall'] ?? 'warn';
  if (onStall !== 'warn' && onStall !== 'exit')
    throw new CliError('CLI_USAGE', `--on-stall is warn or exit, not ${JSON.stringify(onStall)}\nusage: ${WATCH_USAGE}`);
  const feed = new LiveFeed({ io, ...mode, ...(maxTurns === undefined ? {} : { maxTurns }) });
  const stall = createWatchStall();
  let stalled: string | undefined;
  try {
    const warn = (line: string): void => {
      feed.log(line);
    };
    read: for await (const events of input.batches(warn)) {
      for (const event of events) {
        feed.show(event);
        const own = event.type === 'stall.detected' ? [event] : [];
        for (const change of [...own, ...stall.see(event)]) {
          if (change !== event) feed.show({ ...change, runId: event.runId, seq: event.seq, ts: event.ts });
          if (onStall === 'exit' && change.type === 'stall.detected') {
            stalled = describeStall(change);
            break read;
          }
        }
      }
    }
  } catch (error) {
    feed.finish();
    throw error;
  }
  if (stream.notUnderstood > 0) feed.log(`headway: ${stream.notUnderstood} of ${stream.lines} lines not understood`);
  const code = feed.finish();
  if (stalled !== undefined) {
    io.stderr.write(`headway: stopped watching: the run looks stuck (${stalled})\n`);
    return EXIT.stoppedShort;
  }
  if (feed.terminal === undefined && io.signal?.aborted === true) return EXIT.interrupted;
  if (feed.terminal === undefined) {
    io.stderr.write(`headway: the input ended before the run finished (${stream.lines} lines read)\n`);
  }
  if (stream.format === undefined && stream.lines > 0) {
    io.stderr.write(`headway: no line was in a known format (${AGENT_FORMATS.join(', ')}); try --from\n`);
  }
  return code;
}
