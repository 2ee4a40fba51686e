// The headway demo: an agent answers a question about a real folder with real tools,
// while a live progress bar, a JSON-lines log and an audit database record the run.
//
//   npm run demo                                   (from the repository root)
//   npm run demo -- --max-iterations 2             stops at the limit with a PROGRESS REPORT (exit 3)
//   npm run demo -- --continue .headway/reports/latest.json   a follow-up run finishes the job
//
// Exit codes, as the headway CLI's: 0 answered, 1 failed, 2 bad usage, 3 stopped short (a limit,
// a stall) with a report saved, 130 cancelled (Ctrl-C), also with a report.
//   npm run demo -- --provider openai              a real model (OPENAI_API_KEY, OPENAI_BASE_URL)
//   npm run demo -- --provider anthropic           a real Claude model (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL)
//   npm run demo -- --verbose                      also shows each saved checkpoint (or HEADWAY_VERBOSE=1)
import { mkdirSync, createWriteStream } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeRunEnd, HeadwayError } from '@headway/protocol';
import { AuditReporter, SqliteAuditBus } from '@headway/reporter-audit';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { AnthropicProvider } from '@headway/provider-anthropic';
import { OpenAIProvider } from '@headway/provider-openai';
import { AgentRuntime, LATEST_REPORT_FILE, readRunReport, saveRunReport, type Provider, type StoredRunReport } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { demoModel } from './scripted-model.js';
import { fileTools } from './tools.js';

const DEFAULT_TASK = 'Summarize the README file and list the packages';
const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

const usage = `usage: cli-agent [question] [--dir DIR] [--max-iterations N] [--continue REPORT.json|RUN_ID] [--resume]
                 [--provider scripted|openai|anthropic] [--model NAME] [--out DIR] [--step-delay MS] [--verbose]`;

function fail(message: string): never {
  process.stderr.write(`cli-agent: ${message}\n${usage}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
    args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
    allowPositionals: true,
    options: {
      dir: { type: 'string', default: repoRoot },
      'max-iterations': { type: 'string', default: '10' },
      continue: { type: 'string' },
      provider: { type: 'string', default: 'scripted' },
      model: { type: 'string' },
      out: { type: 'string', default: resolve(repoRoot, '.headway') },
      'step-delay': { type: 'string', default: '700' },
      resume: { type: 'boolean', default: false },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = args;
if (values.help === true) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const maxIterations = Number(values['max-iterations']);
if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > 200)
  fail('--max-iterations: expected a whole number from 1 to 200');
const stepDelay = Number(values['step-delay']);
if (!Number.isFinite(stepDelay) || stepDelay < 0) fail('--step-delay: expected milliseconds ≥ 0');
if (values.provider !== 'scripted' && values.provider !== 'openai' && values.provider !== 'anthropic')
  fail(`--provider: expected scripted, openai or anthropic, got ${values.provider}`);

const task = positionals.join(' ').trim() || DEFAULT_TASK;
const outDir = resolve(values.out);
mkdirSync(outDir, { recursive: true });
const paths = {
  jsonl: resolve(outDir, 'run.jsonl'),
  audit: resolve(outDir, 'audit.sqlite'),
  checkpoints: resolve(outDir, 'checkpoints.sqlite'),
  /** Each run's report under its run id, and latest.json: the last one with content. */
  reports: resolve(outDir, 'reports'),
};

let continued: StoredRunReport | undefined;
if (values.continue !== undefined) {
  // A saved report is untrusted input: readRunReport validates it and says exactly what is wrong.
  // A bare run id means that run's report in the reports folder.
  const file =
    /^[\da-z][\w.-]*$/i.test(values.continue) && !values.continue.endsWith('.json')
      ? resolve(paths.reports, `${values.continue}.json`)
      : values.continue;
  try {
    continued = readRunReport(file);
  } catch (error) {
    fail(`--continue: ${HeadwayError.isInstance(error) ? error.message : String(error)}`);
  }
}

const provider: Provider =
  values.provider === 'openai'
    ? new OpenAIProvider({ ...(values.model === undefined ? {} : { model: values.model }) })
    : values.provider === 'anthropic'
      ? new AnthropicProvider({ ...(values.model === undefined ? {} : { model: values.model }) })
      : new ScriptedProvider(demoModel(stepDelay), { name: 'scripted' });
if (provider instanceof AnthropicProvider && !provider.isAvailable())
  fail('--provider anthropic: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a gateway)');

const sessionId = `demo-${Date.now().toString(36)}`;
// Without --verbose the reporter follows HEADWAY_VERBOSE.
const cli = new CLIReporter(values.verbose === true ? { verbose: true } : {});
const jsonStream = createWriteStream(paths.jsonl, { flags: 'w' });
const json = new JSONReporter({ stream: jsonStream });
const auditBus = new SqliteAuditBus(paths.audit);
const audit = new AuditReporter({ sessionId, taskId: 'summarize-repo', bus: auditBus });

const checkpointStore = new SqliteCheckpointStore(paths.checkpoints);
const runtime = new AgentRuntime(
  { provider: provider.name, agentName: 'cli-agent', maxIterations, ...(values.model === undefined ? {} : { model: values.model }) },
  { provider, tools: fileTools(values.dir), sinks: [cli, json, audit], checkpointStore },
);
// A run killed outright (kill -9, a crash) leaves a checkpoint to resume from.
const interrupted = (await runtime.pendingRecovery).filter((r) => r.strategy === 'resume').sort((a, b) => b.updatedAt - a.updatedAt);

const controller = new AbortController();
let cancelling = false;
process.on('SIGINT', () => {
  if (cancelling) process.exit(130); // a second Ctrl-C leaves at once
  cancelling = true;
  cli.log('Cancelling… (Ctrl-C again to quit at once)');
  controller.abort(new Error('cancelled by the user (Ctrl-C)'));
});

const latest = interrupted[0];
if (values.resume && latest === undefined) fail('--resume: there is no interrupted run to resume');
if (!values.resume && latest !== undefined) cli.log(`An interrupted run can be resumed from its last iteration: npm run demo -- --resume`);
const result =
  values.resume && latest !== undefined
    ? await runtime.resume(latest.checkpointId, { signal: controller.signal })
    : continued !== undefined
      ? await runtime.continueRun(continued, { sessionId, signal: controller.signal })
      : await runtime.run(task, { sessionId, signal: controller.signal });
await Promise.all([json.close(), audit.flush({ timeoutMs: 2000 })]);
jsonStream.end();
auditBus.close();
checkpointStore.close();

const say = (line = ''): boolean => process.stdout.write(`${line}\n`);
const end = result.end ?? { state: 'failed' };
// Kept under its run id; latest.json moves only to a report that records work, so a run that
// failed at once (no API key) never replaces the report to continue from.
const saved = saveRunReport(paths.reports, result);
if (result.status === 'completed') {
  say();
  say(result.text);
} else if (saved !== undefined) {
  say();
  say(`The run stopped (${describeRunEnd(end)}). Its progress report is saved in ${saved.path}`);
  if (saved.latest) say(`Continue from it:  npm run demo -- --continue ${resolve(paths.reports, LATEST_REPORT_FILE)}`);
  else say(`It did no work, so there is nothing to continue from: ${resolve(paths.reports, LATEST_REPORT_FILE)} is left as it was.`);
} else {
  say(result.text);
}
say();
say(`Events (JSON lines): ${paths.jsonl}`);
say(`Audit log (SQLite):  ${paths.audit}`);
say(`Checkpoints (SQLite): ${paths.checkpoints}`);
// The headway CLI reads all three; from a clone it is `npm run headway --` (built by `npm run demo`).
const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return /\s/.test(rel) ? JSON.stringify(rel) : rel;
};
const store = `sqlite:${shown(paths.checkpoints)}`;
say();
say('With the headway CLI, from this folder:');
say(`  npm run headway -- replay ${shown(paths.jsonl)} --speed 5     # this run again, in the live view`);
say(`  npm run headway -- watch ${shown(paths.jsonl)}     # its log in the view (--follow: while a run writes it)`);
say(`  npm run headway -- runs show ${result.runId} --store ${store}     # how it ended, its chain of continuations`);
say(`  npm run headway -- runs list --store ${store}     # runs a crash left unfinished: resume one with npm run demo -- --resume`);
// The headway CLI's exit codes: 3 = stopped short with a report saved; a cancelled run exits like
// any Ctrl-C'd program (its report is saved too).
process.exitCode = { completed: 0, limit: 3, stalled: 3, cancelled: 130, failed: 1, interrupted: 1 }[end.state];
