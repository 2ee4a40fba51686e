// The picture of the live bar in the root README and reporter-cli's README (live-bar.svg) is this
// demo in a real terminal: tmux runs the agent as `npm run demo` does (from the repository root,
// its default task), the test captures the pane with its colours mid-run and draws it. When what
// the picture says differs from the committed one (times, percent and the spinner aside), the test
// writes the new picture and fails, so it is committed and never goes stale.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findTestPart } from '@headway/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTerminalSvg, screenText } from './terminal-svg.js';

const tmuxPath = findTestPart('HEADWAY_TMUX');
const here = import.meta.dirname;
const repo = resolve(here, '..', '..', '..');
const picture = resolve(here, '..', 'live-bar.svg');
const socket = `headway-cli-agent-${process.pid}`;
const out = mkdtempSync(join(tmpdir(), 'cli-agent-picture-'));
const COLUMNS = 100;

function tmux(...args: string[]): string {
  // tmux wants some TERM even for a detached session; CI may have none.
  return execFileSync(tmuxPath ?? 'tmux', ['-L', socket, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TERM: process.env.TERM ?? 'xterm-256color' },
  });
}

/**
 * What a picture says, to compare two of them: the spinner's frame, times, counts and the bar's
 * length change from one capture to the next; a finished tool's preview is cut to the width left
 * on its line, and the demo's first tool lists the repository's folder, which holds what a
 * checkout happens to have (build output, logs).
 */
function gist(text: string): string {
  return text
    .replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, '⠋')
    .replace(/[█░]+/g, '█░')
    .replace(/ · ETA [^·\n]*?(?= · |$)/gm, '')
    .replace(/^( {2}✓ \S+ \S+ {2}).*$/gm, '$1…')
    .replace(/\d+/g, '#');
}

function desc(svg: string): string {
  const text = /<desc>([\s\S]*)<\/desc>/.exec(svg)?.[1] ?? '';
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

afterAll(() => {
  if (tmuxPath !== undefined) spawnSync(tmuxPath, ['-L', socket, 'kill-server']);
  rmSync(out, { recursive: true, force: true });
});

describe.skipIf(tmuxPath === undefined)('the demo in a real terminal (tmux)', { timeout: 240_000 }, () => {
  it('shows the live bar mid-run, and live-bar.svg is a picture of it', async () => {
    const tsx = resolve(here, '..', 'node_modules', '.bin', 'tsx');
    // After its second tool the model thinks until the session is killed
    // (HEADWAY_DEMO_HOLD_AFTER_TOOLS): the third iteration's screen holds still while it is
    // captured, however long the poll below waits for the CPU on a loaded machine. Each earlier
    // step thinks 1.5 s, so the bar and the ETA have moved when it is captured.
    const command = `env -u CI -u NO_COLOR -u FORCE_COLOR -u HEADWAY_VERBOSE TERM=xterm-256color HEADWAY_DEMO_HOLD_AFTER_TOOLS=2 ${tsx} ${resolve(here, 'main.ts')} --step-delay 1500 --out ${out}; exec sleep 600`;
    tmux('new-session', '-d', '-s', 'demo', '-x', String(COLUMNS), '-y', '14', '-c', repo, command);

    // Polls the pane (the demo runs in real time; starting tsx took 19 s on a loaded machine).
    const deadline = Date.now() + 180_000;
    let capture = '';
    while (Date.now() < deadline) {
      capture = tmux('capture-pane', '-p', '-e', '-t', 'demo');
      if (capture.includes('iteration 3/10') && capture.includes('read_file')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const text = screenText(capture);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Summarize the README file and list the packages$/);
    expect(lines[1]).toMatch(/^ {2}█+░+ {2}\d+% · \d+s( · ETA [^·]+)? · iteration 3\/10$/);
    expect(lines.some((l) => /^ {2}✓ read_file \d+ms {2}# headway/.test(l))).toBe(true);
    // The colours are in the capture, so they are in the picture.
    expect(capture).toContain('\u001b[36m');

    const svg = renderTerminalSvg(capture, { columns: COLUMNS, title: 'npm run demo' });
    const committed = existsSync(picture) ? readFileSync(picture, 'utf8') : '';
    if (gist(desc(committed)) !== gist(text)) {
      writeFileSync(picture, svg);
      expect.fail(`examples/cli-agent/live-bar.svg showed another screen; it is rewritten from this run: commit it.\n${text}`);
    }
  });
});
