import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { numberOption, parseCommand, stringOption } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import { AGENT_FORMATS } from '../convert/converter.js';
import { EventStream } from '../convert/event-stream.js';
import { ioClock, type CliIo } from '../io/cli-io.js';
import { readLines, TOO_LONG } from '../io/line-source.js';
import { formatOption } from './watch.js';

const CONVERT_USAGE = 'headway convert [FILE|-] [--from auto|claude-code|codex|gemini] [--out FILE] [--follow]';

const CONVERT_HELP = `${CONVERT_USAGE}

Writes a run as headway progress events, one JSON line each (the format of @headway/reporter-json),
from the JSON-lines stream of Claude Code, Codex or gemini-cli: store any agent's run, serve it over
SSE, audit it, replay it with \`headway replay\`.

Options:
  --from FORMAT    auto (default), headway, claude-code, codex, gemini
  --out FILE       write to FILE instead of stdout
  --follow, -f     keep reading FILE as it grows, until the run ends
  --max-turns N    the run's turn cap: turns also become iteration events
  --run-id ID      runId of the events (default: the stream's session or thread id)

Exit codes: 0 converted, 1 nothing in the input was understood (or a file problem), 2 bad usage.

Examples:
  claude -p "fix the test" --output-format stream-json --verbose | headway convert > run.jsonl
  headway convert --from codex codex-run.jsonl --out run.jsonl && headway replay run.jsonl`;

/** `headway convert`. */
export async function convertCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      from: { type: 'string' },
      out: { type: 'string' },
      follow: { type: 'boolean', short: 'f' },
      'max-turns': { type: 'string' },
      'run-id': { type: 'string' },
    },
    CONVERT_USAGE,
  );
  if (values.help === true) {
    io.stdout.write(`${CONVERT_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 1)
    throw new CliError('CLI_USAGE', `convert reads one input, got ${positionals.length}\nusage: ${CONVERT_USAGE}`);
  const path = positionals[0] ?? '-';
  const maxTurns = numberOption(values, 'max-turns', undefined, 1);
  const runId = stringOption(values, 'run-id');
  const outPath = stringOption(values, 'out');
  const stream = new EventStream({
    from: formatOption(stringOption(values, 'from')),
    clock: ioClock(io),
    ...(runId === undefined ? {} : { runId }),
    ...(maxTurns === undefined ? {} : { maxTurns: Math.floor(maxTurns) }),
    onWarning: (message) => {
      io.stderr.write(`headway: ${path === '-' ? 'stdin' : path}: ${message}\n`);
    },
  });
  const out = outPath === undefined ? io.stdout : createWriteStream(outPath);
  let buffered = '';
  const flush = async (): Promise<void> => {
    if (buffered === '') return;
    const ok = out.write(buffered);
    buffered = '';
    if (!ok) await once(out, 'drain');
  };
  for await (const line of readLines(path, {
    follow: values.follow === true,
    stop: () => stream.terminal !== undefined,
    clock: ioClock(io),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  })) {
    for (const event of line === TOO_LONG ? stream.pushTooLong() : stream.push(line)) buffered += `${JSON.stringify(event)}\n`;
    if (buffered.length > 64 * 1024) await flush();
  }
  for (const event of stream.end()) buffered += `${JSON.stringify(event)}\n`;
  await flush();
  if (outPath !== undefined) {
    out.end();
    await once(out, 'finish');
  }
  if (stream.notUnderstood > 0) io.stderr.write(`headway: ${stream.notUnderstood} of ${stream.lines} lines not understood\n`);
  if (stream.format === undefined) {
    io.stderr.write(`headway: no line was in a known format (${AGENT_FORMATS.join(', ')})\n`);
    return EXIT.failed;
  }
  return EXIT.ok;
}
