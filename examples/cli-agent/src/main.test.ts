// Runs the demo the way a user does — a child process — and checks what they would see.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseProgressEvent, progressReportSchema } from '@headway/protocol';
import { SqliteAuditBus } from '@headway/reporter-audit';
import { describe, expect, it, onTestFinished } from 'vitest';

const here = import.meta.dirname;
const repo = resolve(here, '..', '..', '..');
// The agent runs in node itself with tsx's loader, not under the tsx launcher: the launcher relays
// a SIGINT and, when the agent does not confirm it within 30 ms (a loaded machine), sends a
// second one, which the agent rightly reads as "Ctrl-C again: quit at once".
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const main = resolve(here, 'main.ts');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDemo(
  args: string[],
  options: { onStderr?: (text: string, kill: (signal: NodeJS.Signals) => void) => void; env?: Record<string, string | undefined> } = {},
): Promise<Outcome> {
  return new Promise((done, fail) => {
    // Its own process group, so SIGKILL reaches the agent and whatever it started.
    const child = spawn(process.execPath, ['--import', tsxLoader, main, ...args], {
      cwd: repo,
      env: { ...process.env, CI: '1', NO_COLOR: '1', ...options.env },
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      options.onStderr?.(stderr, (signal) => {
        // SIGINT goes to the agent, like a terminal's Ctrl-C; SIGKILL hits the whole group.
        if (signal === 'SIGKILL' && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      });
    });
    child.on('error', fail);
    let closed = false;
    child.on('close', (code) => {
      closed = true;
      done({ code, stdout, stderr });
    });
    // A demo still running when its test ends (a failure, a timeout; a held run never ends by
    // itself) is killed with whatever it started.
    onTestFinished(() => {
      if (!closed && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    });
  });
}

function events(out: string) {
  return readFileSync(join(out, 'run.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => parseProgressEvent(JSON.parse(line)));
}

const packages = readdirSync(join(repo, 'packages')).sort();

describe('cli-agent demo', () => {
  it('answers from the real files, shows progress, and writes the JSON and audit logs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
    const r = await runDemo(['--step-delay', '0', '--out', out]);
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('  [progress] Starting: Summarize the README file and list the packages');
    expect(lines).toContain('  [progress] Iteration 1/10');
    expect(lines.some((l) => l.startsWith('  [progress] Tool: read_file done — ok'))).toBe(true);
    expect(r.stderr).not.toContain('Checkpoint saved'); // only with --verbose
    expect(lines.at(-2)).toMatch(/^ {2}\[progress\] Complete: finished after 5 iteration\(s\)/);
    expect(r.stdout).toContain('**What README.md says:** Make LLM agent runs legible.');
    expect(r.stdout).toContain(`**Packages (${packages.length}):**`);
    for (const name of packages) expect(r.stdout).toContain(`- @headway/${name} — `);
    expect(r.stdout).toContain(`Events (JSON lines): ${join(out, 'run.jsonl')}`);
    // Its last lines: the headway CLI on these logs, as commands to paste where the demo ran.
    const store = `sqlite:${relative(repo, join(out, 'checkpoints.sqlite'))}`;
    const runId = /runs show (\S+) /.exec(r.stdout)?.[1] ?? '';
    expect(r.stdout.trimEnd().split('\n').slice(-5)).toEqual([
      'With the headway CLI, from this folder:',
      `  npm run headway -- replay ${relative(repo, join(out, 'run.jsonl'))} --speed 5     # this run again, in the live view`,
      `  npm run headway -- watch ${relative(repo, join(out, 'run.jsonl'))}     # its log in the view (--follow: while a run writes it)`,
      `  npm run headway -- runs show ${runId} --store ${store}     # how it ended, its chain of continuations`,
      `  npm run headway -- runs list --store ${store}     # runs a crash left unfinished: resume one with npm run demo -- --resume`,
    ]);

    const log = events(out);
    expect(log[0]?.runId).toBe(runId);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'completed' });
    const percents = log.flatMap((e) => (e.type === 'progress' ? [e.percent] : []));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);

    const bus = new SqliteAuditBus(join(out, 'audit.sqlite'));
    try {
      const audit = bus.query({});
      expect(audit.map((e) => e.eventType)).toContain('agent.progress.start');
      expect(audit.map((e) => e.eventType)).toContain('agent.progress.complete');
    } finally {
      bus.close();
    }
  });

  it('stops at --max-iterations with a progress report, and --continue finishes the job without redoing work', async () => {
    const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
    const first = await runDemo(['--step-delay', '0', '--out', out, '--max-iterations', '3']);
    expect(first.code).toBe(3); // the CLI's code for "stopped short, left a report"
    expect(first.stderr).toContain('## PROGRESS REPORT');
    expect(first.stderr).toContain('- Read README.md (read_file README.md)');
    const firstRunId = /runs show (\S+) /.exec(first.stdout)?.[1] ?? '';
    const reportPath = join(out, 'reports', `${firstRunId}.json`);
    const latest = join(out, 'reports', 'latest.json');
    expect(first.stdout).toContain(`The run stopped (stopped at its iteration limit). Its progress report is saved in ${reportPath}`);
    expect(first.stdout).toContain(`Continue from it:  npm run demo -- --continue ${latest}`);
    const report = progressReportSchema.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
    expect(report).toMatchObject({ reason: 'max-iterations', generatedBy: 'model' });
    expect(report.keyFindings[0]).toMatch(/^README summary: Make LLM agent runs legible\./);
    expect(readFileSync(latest, 'utf8')).toBe(readFileSync(reportPath, 'utf8'));

    // A run that fails before doing anything (no API key) leaves the report to continue from alone.
    const failed = await runDemo(['--step-delay', '0', '--out', out, '--provider', 'openai'], {
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('It did no work, so there is nothing to continue from');
    expect(readFileSync(latest, 'utf8')).toBe(readFileSync(reportPath, 'utf8'));

    const second = await runDemo(['--step-delay', '0', '--out', out, '--continue', latest]);
    expect(second.code).toBe(0);
    // The continued run keeps the task as its title and links to the run it continues.
    const started = events(out)[0];
    expect(started).toMatchObject({
      type: 'run.started',
      task: 'Summarize the README file and list the packages',
      parentRunId: firstRunId,
    });
    const tools = second.stderr.split('\n').filter((l) => /^ {2}\[progress\] Tool: \S+\.\.\.$/.test(l));
    expect(tools).toEqual(['  [progress] Tool: list_dir...', '  [progress] Tool: grep...']); // not the root listing or the README again
    expect(second.stdout).toContain('**What README.md says:** Make LLM agent runs legible.');
    for (const name of packages) expect(second.stdout).toContain(`- @headway/${name} — `);
  });

  it('cancels cleanly on Ctrl-C with a report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
    let sent = false;
    // After its first tool the scripted model thinks until cancelled (HEADWAY_DEMO_HOLD_AFTER_TOOLS),
    // so the Ctrl-C lands mid-run however late a loaded machine delivers it.
    const r = await runDemo(['--step-delay', '0', '--out', out], {
      env: { HEADWAY_DEMO_HOLD_AFTER_TOOLS: '1' },
      onStderr: (text, kill) => {
        if (!sent && text.includes('Tool: list_dir done')) {
          sent = true;
          kill('SIGINT');
        }
      },
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toContain('The run stopped (cancelled)');
    const report = progressReportSchema.parse(JSON.parse(readFileSync(join(out, 'reports', 'latest.json'), 'utf8')));
    expect(report.reason).toBe('cancelled');
    expect(report.completedWork.join('\n')).toContain('list_dir');
    // What remained: never `_None._` for a run that stopped short.
    expect(report.remaining.length).toBeGreaterThan(0);
    expect(events(out).at(-1)?.type).toBe('run.cancelled');
  });

  it('resumes a run killed outright from its last checkpoint, without redoing finished tools', async () => {
    const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
    let killed = false;
    // The kill must land in the next round's thinking time, before its tool call finishes and is
    // checkpointed: after its second tool (the README read) the model thinks until killed
    // (HEADWAY_DEMO_HOLD_AFTER_TOOLS), however late a loaded machine lets the test see the checkpoint.
    const first = await runDemo(['--step-delay', '0', '--out', out, '--verbose'], {
      env: { HEADWAY_DEMO_HOLD_AFTER_TOOLS: '2' },
      onStderr: (text, kill) => {
        // Kill once the round that read the README is checkpointed (a call still in flight
        // would rightly run again on resume, with the same idempotency key).
        const after = text.split('Tool: read_file done')[1];
        if (!killed && after?.includes('Checkpoint saved') === true) {
          killed = true;
          kill('SIGKILL');
        }
      },
    });
    expect(first.code).toBeNull(); // killed, no clean-up ran
    const second = await runDemo(['--step-delay', '0', '--out', out, '--resume']);
    expect(second.code).toBe(0);
    const tools = second.stderr.split('\n').filter((l) => /^ {2}\[progress\] Tool: \S+\.\.\.$/.test(l));
    expect(tools).toEqual(['  [progress] Tool: list_dir...', '  [progress] Tool: grep...']);
    for (const name of packages) expect(second.stdout).toContain(`- @headway/${name} — `);
    const nothing = await runDemo(['--out', out, '--resume']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--resume: there is no interrupted run to resume');
  });

  it('rejects a report file that is not a report, naming what is wrong', async () => {
    const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
    const bad = join(out, 'bad.json');
    writeFileSync(bad, JSON.stringify({ task: 'x', reason: 'bored' }));
    const r = await runDemo(['--out', out, '--continue', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cli-agent: --continue: ${bad}: not a progress report: reason: `);
    const flags = await runDemo(['--max-iterations', 'lots']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--max-iterations: expected a whole number from 1 to 200');
  });

  it('--provider anthropic without a key says to set ANTHROPIC_API_KEY', async () => {
    const r = await runDemo(['--provider', 'anthropic', '--out', mkdtempSync(join(tmpdir(), 'headway-demo-'))], {
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cli-agent: --provider anthropic: set ANTHROPIC_API_KEY');
  });

  it('--provider anthropic talks to the Messages API at ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY', async () => {
    // A local stand-in for the API that answers every request with one text message.
    const seen: { auth: string | undefined; model: unknown }[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as { model?: unknown };
        seen.push({ auth: req.headers.authorization, model: body.model });
        // The demo calls the model without streaming: one whole message as JSON.
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_local' });
        res.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5',
            content: [{ type: 'text', text: 'Headway makes agent runs legible.' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 900, output_tokens: 9 },
          }),
        );
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const out = mkdtempSync(join(tmpdir(), 'headway-demo-'));
      const r = await runDemo(['What is headway?', '--provider', 'anthropic', '--model', 'claude-haiku-4-5', '--out', out], {
        env: { ANTHROPIC_API_KEY: 'sk-ant-local', ANTHROPIC_BASE_URL: baseURL },
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Headway makes agent runs legible.');
      expect(seen[0]).toEqual({ auth: 'Bearer sk-ant-local', model: 'claude-haiku-4-5' });
    } finally {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    }
  });
});
