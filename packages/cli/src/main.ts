import { HeadwayError } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { CliError, EXIT } from './cli-error.js';
import { auditCommand } from './commands/audit.js';
import { convertCommand } from './commands/convert.js';
import { costCommand } from './commands/cost.js';
import { replayCommand } from './commands/replay.js';
import { reportCommand } from './commands/report.js';
import { runsCommand } from './commands/runs.js';
import { serveCommand } from './commands/serve.js';
import { watchCommand } from './commands/watch.js';
import type { CliIo } from './io/cli-io.js';
import { terminalJson, terminalLines, terminalText } from './terminal-text.js';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  watch: watchCommand,
  convert: convertCommand,
  replay: replayCommand,
  report: reportCommand,
  runs: runsCommand,
  cost: costCommand,
  serve: serveCommand,
  audit: auditCommand,
};

/** `headway --help`. */
// eslint-disable-next-line @typescript-eslint/no-inferrable-types -- isolatedDeclarations needs the type of a template literal
export const HELP: string = `headway — progress you can see for LLM agent runs

Usage: headway <command> [options]     (headway <command> --help for each)

Commands:
  watch [FILE|-]                 live progress view of a run: headway events, or the stream of
                                 Claude Code, Codex or gemini-cli (--from auto|…)
  convert [FILE|-]               an agent's stream as headway events (JSON lines)
  replay FILE [--speed N]        a recorded event log through the live view, N× faster
  report render|parse|continue   progress report: JSON → Markdown, Markdown → JSON, follow-up prompt
  runs list|show|resume|abandon  unfinished and finished runs in a checkpoint store
  cost [--session ID]            spend per session and run, from the session store
  serve --store URL              every run of a checkpoint store on one page, live (127.0.0.1:4400)
  audit verify PATH              check an audit log's hash chain; names the first tampered record

Exit codes: 0 ok, 1 failed, 2 bad usage, 3 the run stopped short (with a report), 130 Ctrl-C.

Examples:
  claude -p "fix the failing test" --output-format stream-json --verbose | headway watch
  codex exec --json "add a README" | headway convert --from codex > run.jsonl
  headway replay run.jsonl --speed 10
  headway runs list --store sqlite:.headway/agent.db
  headway audit verify .headway/audit.jsonl`;

/**
 * Runs `headway` with `argv` (without `node` and the script): the exit code to end with.
 * Errors become one `headway: …` line on stderr and exit 1 or 2, never a stack trace.
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), createProcessIo());
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(`${HELP}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr.write(`headway: unknown command ${terminalJson(name)}\n\n${HELP}\n`);
    return EXIT.usage;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (CliError.isInstance(error)) {
      io.stderr.write(`headway ${name}: ${terminalLines(error.message)}\n`);
      const { exitCode } = error as Partial<CliError>;
      return typeof exitCode === 'number' ? exitCode : EXIT.failed;
    }
    if (HeadwayError.isInstance(error)) {
      io.stderr.write(`headway ${name}: ${terminalLines(error.message)} (${terminalText(error.code)})\n`);
      return EXIT.failed;
    }
    io.stderr.write(`headway ${name}: ${terminalLines(errorMessage(error))}\n`);
    return EXIT.failed;
  }
}

/** This package's version, as `headway --version` prints it. */
export const VERSION = '0.0.0';
