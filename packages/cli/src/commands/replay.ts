import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';
import { errorMessage, sleep } from '@headway/protocol/internal';
import { numberOption, parseCommand, showHelp } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { readInput } from '../io/read-input.js';
import { LiveFeed } from '../live-feed.js';

const REPLAY_USAGE = 'headway replay FILE [--speed N] [--plain]';

const REPLAY_HELP = `${REPLAY_USAGE}

Replays a recorded headway event log (JSON lines: @headway/reporter-json, \`headway convert\`)
through the live view, keeping the time between events, N times faster.

Options:
  --speed N        N× real time (default 1); 0 shows every event at once
  --max-wait MS    longest pause between two events, before --speed (default 5000)
  --plain          plain lines even on a terminal

Every line is checked before anything is shown: a line that is not a progress event stops the
replay with its line number (a last line cut off mid-write is skipped with a warning).

Exit codes: 0 the run finished, 1 it failed (or a missing or corrupt file), 2 bad usage,
3 it stopped short (a limit, cancelled), 130 Ctrl-C.

Examples:
  headway replay .headway/events.jsonl --speed 10
  headway replay run.jsonl --speed 0 --plain > /dev/null; echo $?`;

/** The events of a log, validated; throws naming the first bad line. */
function parseEventLog(path: string, text: string): { events: ProgressEvent[]; warnings: string[] } {
  const lines = text.split('\n');
  const events: ProgressEvent[] = [];
  const warnings: string[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (i === lines.length - 1) {
        warnings.push(`${path}:${i + 1}: last line cut off mid-write, skipped`);
        continue;
      }
      throw new CliError('CLI_CORRUPT_FILE', `${path}:${i + 1}: not JSON (${errorMessage(error)})`, { cause: error });
    }
    try {
      events.push(parseProgressEvent(value));
    } catch (error) {
      throw new CliError('CLI_CORRUPT_FILE', `${path}:${i + 1}: ${errorMessage(error)}`, { cause: error });
    }
  }
  return { events, warnings };
}

/** `headway replay`. */
export async function replayCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    { speed: { type: 'string' }, 'max-wait': { type: 'string' }, plain: { type: 'boolean' } },
    REPLAY_USAGE,
  );
  if (showHelp(values, REPLAY_HELP, io)) return EXIT.ok;
  const [path, ...rest] = positionals;
  if (path === undefined || rest.length > 0) throw new CliError('CLI_USAGE', `replay takes one event log\nusage: ${REPLAY_USAGE}`);
  const speed = numberOption(values, 'speed', 1) ?? 1;
  const maxWait = numberOption(values, 'max-wait', 5000) ?? 5000;
  const { events, warnings } = parseEventLog(path, await readInput(path));
  const feed = new LiveFeed({
    io,
    estimate: !events.some((e) => e.type === 'progress'),
    ...(values.plain === true ? { mode: 'plain' as const } : {}),
  });
  for (const warning of warnings) feed.log(`headway: ${warning}`);
  let previous: number | undefined;
  for (const event of events) {
    if (speed > 0 && previous !== undefined) {
      const wait = Math.min(Math.max(0, event.ts - previous), maxWait) / speed;
      if (wait >= 1) {
        try {
          await sleep(ioClock(io), wait, io.signal);
        } catch {
          break;
        }
      }
    }
    previous = event.ts;
    feed.show(event);
  }
  const code = feed.finish();
  if (feed.terminal === undefined && io.signal?.aborted === true) return EXIT.interrupted;
  if (feed.terminal === undefined) io.stderr.write(`headway: ${path}: the log ends before the run finished\n`);
  return code;
}
