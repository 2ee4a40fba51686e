import { progressReportSchema, type ProgressReport } from '@headway/protocol';
import { continuationPrompt, parseProgressReport, renderProgressReport } from '@headway/report';
import { parseCommand, showHelp } from '../args.js';
import { CliError, EXIT } from '../cli-error.js';
import type { CliIo } from '../io/cli-io.js';
import { parseJsonFile, readInput } from '../io/read-input.js';

const REPORT_USAGE = 'headway report render|parse|continue FILE [--json]';

const REPORT_HELP = `${REPORT_USAGE}

The structured progress report a run leaves when it stops short (@headway/report).

Commands:
  render FILE.json     the report as Markdown (PROGRESS REPORT, its six sections and stats)
  parse FILE.md        Markdown back to the report's JSON; what was missing or odd goes to stderr
  continue FILE        the prompt for a follow-up run that continues from the report (JSON or Markdown)

FILE may be - for stdin. A JSON file that does not parse is named with its line and column.

Options:
  --json               continue: print {"prompt": …} instead of the text

Exit codes: 0 ok, 1 a missing or corrupt file, 2 bad usage.

Examples:
  headway report render .headway/reports/latest.json > report.md
  headway report parse report.md > report.json
  claude -p "$(headway report continue .headway/reports/latest.json)"`;

/** A report from a JSON or a Markdown file (JSON when it starts with \`{\`). */
async function readReport(path: string, io: CliIo): Promise<ProgressReport> {
  const text = await readInput(path);
  if (text.trimStart().startsWith('{')) return parseJsonFile(path, text, progressReportSchema, 'a progress report');
  const { report, warnings } = parseProgressReport(text);
  for (const warning of warnings) io.stderr.write(`headway: ${path}: ${warning}\n`);
  return report;
}

/** `headway report`. */
export async function reportCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, REPORT_USAGE);
  const [sub, path, ...rest] = positionals;
  if (showHelp(values, REPORT_HELP, io)) return EXIT.ok;
  if (sub === undefined) throw new CliError('CLI_USAGE', `report needs render, parse or continue\nusage: ${REPORT_USAGE}`);
  if (path === undefined || rest.length > 0) throw new CliError('CLI_USAGE', `report ${sub} takes one FILE\nusage: ${REPORT_USAGE}`);
  switch (sub) {
    case 'render': {
      const report = parseJsonFile(path, await readInput(path), progressReportSchema, 'a progress report');
      io.stdout.write(`${renderProgressReport(report)}\n`);
      return EXIT.ok;
    }
    case 'parse': {
      const { report, warnings } = parseProgressReport(await readInput(path));
      for (const warning of warnings) io.stderr.write(`headway: ${path}: ${warning}\n`);
      io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return EXIT.ok;
    }
    case 'continue': {
      const prompt = continuationPrompt(await readReport(path, io));
      io.stdout.write(values.json === true ? `${JSON.stringify({ prompt })}\n` : `${prompt}\n`);
      return EXIT.ok;
    }
    default:
      throw new CliError('CLI_USAGE', `unknown report command ${JSON.stringify(sub)}\nusage: ${REPORT_USAGE}`);
  }
}
