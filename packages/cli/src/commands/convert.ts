import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ProgressEvent } from '@headway/protocol';
import { parseCommand, showHelp, stringOption } from '../args.js';
import { EXIT } from '../cli-error.js';
import { AGENT_FORMATS } from '../convert/converter.js';
import type { CliIo } from '../io/cli-io.js';
import { finishConvertedRun } from '../convert/converted-run.js';
import { terminalLines } from '../terminal-text.js';
import { AGENT_INPUT_OPTIONS, KEEP_SECRETS_HELP, openAgentInput } from './agent-input.js';

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
  ${KEEP_SECRETS_HELP}

The events keep the run's own timing: gemini-cli's and Claude Code transcripts' timestamps; a
Claude Code stream's lines spread over its result's duration_ms; Codex's items a second apart in
their order (a stream without any time starts when its first line is read). They carry the
progress events \`headway watch\` shows, made by the same estimator, so \`headway replay\` plays
the run at the speed it happened, with its bar.

Exit codes: 0 converted, 1 nothing in the input was understood (or a file problem), 2 bad usage
(or an input that gives an event the protocol rejects: the message says which).

Examples:
  claude -p "fix the test" --output-format stream-json --verbose | headway convert > run.jsonl
  headway convert --from codex codex-run.jsonl --out run.jsonl && headway replay run.jsonl`;

/** `headway convert`. */
export async function convertCommand(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(args, { ...AGENT_INPUT_OPTIONS, out: { type: 'string' } }, CONVERT_USAGE);
  if (showHelp(parsed.values, CONVERT_HELP, io)) return EXIT.ok;
  const input = openAgentInput('convert', CONVERT_USAGE, parsed, io, 'stream');
  const { stream } = input;
  const outPath = stringOption(parsed.values, 'out');
  const warn = (line: string): void => {
    io.stderr.write(`${terminalLines(line)}\n`);
  };
  // The whole run is read first: its timing (Claude Code tells its duration only at the end) and
  // its progress are worked out from all of it.
  const read: ProgressEvent[] = [];
  for await (const events of input.batches(warn)) for (const event of events) read.push(event);
  if (stream.notUnderstood > 0) io.stderr.write(`headway: ${stream.notUnderstood} of ${stream.lines} lines not understood\n`);
  if (stream.format === undefined) {
    io.stderr.write(`headway: no line was in a known format (${AGENT_FORMATS.join(', ')})\n`);
    return EXIT.failed;
  }
  const events = finishConvertedRun(read, {
    spread: stream.format !== 'headway' && !stream.timed,
    maxTurns: input.maxTurns === undefined ? undefined : Math.floor(input.maxTurns),
  });
  const out = outPath === undefined ? io.stdout : createWriteStream(outPath);
  let buffered = '';
  const flush = async (): Promise<void> => {
    if (buffered === '') return;
    const ok = out.write(buffered);
    buffered = '';
    if (!ok) await once(out, 'drain');
  };
  for (const event of events) {
    buffered += `${JSON.stringify(event)}\n`;
    if (buffered.length > 64 * 1024) await flush();
  }
  await flush();
  if (outPath !== undefined) {
    out.end();
    await once(out, 'finish');
  }
  return EXIT.ok;
}
