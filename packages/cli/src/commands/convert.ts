import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseCommand, showHelp, stringOption } from '../args.js';
import { EXIT } from '../cli-error.js';
import { AGENT_FORMATS } from '../convert/converter.js';
import type { CliIo } from '../io/cli-io.js';
import { AGENT_INPUT_OPTIONS, openAgentInput } from './agent-input.js';

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
  const parsed = parseCommand(args, { ...AGENT_INPUT_OPTIONS, out: { type: 'string' } }, CONVERT_USAGE);
  if (showHelp(parsed.values, CONVERT_HELP, io)) return EXIT.ok;
  const input = openAgentInput('convert', CONVERT_USAGE, parsed, io);
  const { stream } = input;
  const outPath = stringOption(parsed.values, 'out');
  const out = outPath === undefined ? io.stdout : createWriteStream(outPath);
  let buffered = '';
  const flush = async (): Promise<void> => {
    if (buffered === '') return;
    const ok = out.write(buffered);
    buffered = '';
    if (!ok) await once(out, 'drain');
  };
  const warn = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  for await (const events of input.batches(warn)) {
    for (const event of events) buffered += `${JSON.stringify(event)}\n`;
    if (buffered.length > 64 * 1024) await flush();
  }
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
