// The live view in a real terminal: tmux runs scripts/live-demo.mjs, and the test reads
// what a person would see with `capture-pane`. The demo waits for a key press at each
// pause (--step) and runs on a clock that moves only with the key presses, so every snapshot
// is taken at a known point of the run and shows the same times however slow the machine.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findTestPart } from '@headway/test-utils';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';

const tmuxPath = findTestPart('HEADWAY_TMUX');
const socket = `headway-test-${process.pid}`;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
// eslint-disable-next-line no-control-regex -- colour sequences in a capture
const SGR_COLOUR = /\u001b\[[0-9;]*m/;

function tmux(...args: string[]): string {
  // tmux wants some TERM even for a detached session; CI may have none.
  return execFileSync(tmuxPath ?? 'tmux', ['-L', socket, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TERM: process.env.TERM ?? 'xterm-256color' },
  });
}

let sessions = 0;

/** Starts the demo in a new 100×30 session; the pane stays open after the demo exits. */
function startDemo(env: string, args: string): string {
  const name = `demo${++sessions}`;
  const command = `env -u CI -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color ${env} node --import tsx scripts/live-demo.mjs --step ${args}; echo "[demo exited $?]"; exec sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30', '-c', packageDir, command);
  return name;
}

function screen(session: string, ...flags: string[]): string {
  return tmux('capture-pane', '-p', '-t', session, ...flags);
}

function visibleLines(session: string): string[] {
  return screen(session)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
}

/**
 * Polls the pane until `ready` holds (the demo draws once a key press reaches it), up to 90 s: the first wait
 * includes starting Node with tsx in the pane, which took 19 s in other packages' child
 * processes while the whole suite ran on 2 cores at load 30.
 */
async function waitFor(session: string, ready: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 90_000;
  let text = '';
  while (Date.now() < deadline) {
    text = screen(session);
    if (ready(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
}

/** Ends the demo's current pause. */
function press(session: string): void {
  tmux('send-keys', '-t', session, 'n');
}

/** Moves the demo's clock one frame of the animation, which fires the reporter's timer. */
function tick(session: string): void {
  tmux('send-keys', '-t', session, 't');
}

afterAll(() => {
  if (tmuxPath !== undefined) spawnSync(tmuxPath, ['-L', socket, 'kill-server']);
});

describe.skipIf(tmuxPath === undefined)('live mode in a real terminal (tmux)', { timeout: 240_000 }, () => {
  it('shows the bar and the running tool mid-run, keeps host lines intact and leaves the summary', async () => {
    const s = startDemo('', '--scenario ok');

    // Mid-run 1: first tool running, with a spinner and a ticking elapsed time.
    const first = await waitFor(s, (t) => /file_read \d/.test(t), 'the running file_read');
    let lines = visibleLines(s);
    expect(lines[0]).toBe('host: loaded 3 files');
    expect(lines[1]).toMatch(new RegExp(`^${SPINNER.source} Summarize the README file$`));
    expect(lines[2]).toMatch(/^ {2}█+░+ {2}10% · \d+s · iteration 1\/10$/);
    expect(lines[3]).toBe('  Reading files');
    expect(lines[4]).toMatch(new RegExp(`^  ${SPINNER.source} file_read \\d+(ms|\\.\\ds)$`));
    expect(screen(s, '-e')).toMatch(SGR_COLOUR);
    // The block is animated by the reporter's own timer: the running tool's line changes.
    const toolLine = (t: string) => t.split('\n').find((l) => l.includes('file_read'));
    tick(s);
    await waitFor(s, (t) => toolLine(t) !== toolLine(first), 'the spinner to move');

    // Mid-run 2: host output printed with log() sits above the block, each line once.
    press(s);
    await waitFor(s, (t) => /web_search \d/.test(t), 'the running web_search');
    lines = visibleLines(s);
    expect(lines.slice(0, 2)).toEqual(['host: loaded 3 files', 'host: cache warm']);
    expect(lines[3]).toMatch(/^ {2}█+░+ {2}45% · \d+s · ETA \d+s · iteration 2\/10$/);
    expect(lines).toContain('  Analyzing input');
    expect(lines).toContain('  ✓ file_read 1.2s  # headway makes long-running agent loops legible');
    expect(lines).toContain('  ⚠ iteration limit approaching (8 of 10)');
    expect(lines.filter((l) => l.includes('Summarize the README file'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('%'))).toHaveLength(1);

    // The end: the final summary stays, no spinner is left, the host's next line follows it.
    press(s);
    await waitFor(s, (t) => t.includes('[demo exited 0]'), 'the demo to exit');
    lines = visibleLines(s);
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('host: loaded 3 files');
    expect(lines[1]).toBe('host: cache warm');
    expect(lines[2]).toBe('✔ Summarize the README file');
    expect(lines[3]).toMatch(/^ {2}█{29} 100% · \d+s · iteration 2\/10$/);
    expect(lines[4]).toBe('  ⚠ iteration limit approaching (8 of 10)');
    expect(lines[5]).toBe('  Complete: finished after 2 iteration(s) · 2 tool call(s), 1 failed');
    expect(lines[6]).toBe('host: bye');
    expect(lines[7]).toBe('[demo exited 0]');
    expect(lines.join('\n')).not.toMatch(SPINNER);
  });

  it('prints the progress report above the block and stops at the limit, without colour under NO_COLOR', async () => {
    const s = startDemo('NO_COLOR=1', '--scenario limit');
    await waitFor(s, (t) => /file_read \d/.test(t), 'the running file_read');
    expect(screen(s, '-e')).not.toMatch(SGR_COLOUR);
    press(s);
    await waitFor(s, (t) => /web_search \d/.test(t), 'the running web_search');
    press(s);
    await waitFor(s, (t) => t.includes('[demo exited 0]'), 'the demo to exit');
    const all = screen(s, '-S', '-')
      .split('\n')
      .map((l) => l.trimEnd());
    const headings = [
      '## PROGRESS REPORT',
      '### Task',
      '### Completed Work',
      '### Key Findings',
      '### Attempted but Inconclusive',
      '### Not Started / Remaining',
      '### Suggested Next Steps',
    ];
    const at = headings.map((h) => all.indexOf(h));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(all).toContain('- web_search: rate limited');
    const tail = all.filter((l) => l !== '').slice(-8);
    expect(tail).toEqual([
      '■ Summarize the README file',
      expect.stringMatching(/^ {2}█+░+ {2}45% · \d+s · iteration 2\/10$/),
      '  ⚠ iteration limit approaching (8 of 10)',
      '  ⚠ winding down: time budget used (2 grace iteration(s) left to write the report)',
      '  ■ iteration limit reached (10 of 10)',
      '  Stopped at a limit: stopped after 10 iteration(s) · 2 tool call(s), 1 failed',
      'host: bye',
      '[demo exited 0]',
    ]);
    expect(screen(s, '-e', '-S', '-')).not.toMatch(SGR_COLOUR);
  });

  it('redraws the block to fit when the terminal narrows and widens', async () => {
    const s = startDemo('', '--scenario ok');
    await waitFor(s, (t) => /file_read \d/.test(t), 'the running file_read');
    press(s);
    await waitFor(s, (t) => /web_search \d/.test(t), 'the running web_search');
    tmux('resize-window', '-t', s, '-x', '40');
    const narrow = await waitFor(s, (t) => t.includes('…'), 'a redraw at 40 columns');
    // Assert on the settled screen: one more tick of the spinner after the redraw.
    const toolLine = (t: string) => t.split('\n').find((l) => l.includes('web_search'));
    tick(s);
    await waitFor(s, (t) => toolLine(t) !== toolLine(narrow), 'the next tick');
    let lines = visibleLines(s);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    // The block is the bottom of the screen. (Rows above it are normally erased too, but a
    // frame already on its way to the terminal when it reflows can leave a stale row there:
    // a race no inline terminal view can close, see the README.)
    expect(lines.slice(-6)).toEqual([
      expect.stringMatching(new RegExp(`^${SPINNER.source} Summarize the README file$`)),
      expect.stringMatching(/^ {2}█+░+ {2}45% · \d+s · ETA \d+s · it…$/),
      '  Analyzing input',
      '  ✓ file_read 1.2s  # headway makes lo…',
      expect.stringMatching(new RegExp(`^  ${SPINNER.source} web_search \\d+(ms|\\.\\ds)$`)),
      '  ⚠ iteration limit approaching (8 of …',
    ]);
    tmux('resize-window', '-t', s, '-x', '100');
    await waitFor(s, (t) => t.includes('iteration 2/10') && !t.includes('…'), 'a redraw at 100 columns');
    lines = visibleLines(s);
    expect(lines).toContain('  ✓ file_read 1.2s  # headway makes long-running agent loops legible');
    press(s);
    await waitFor(s, (t) => t.includes('[demo exited 0]'), 'the demo to exit');
    expect(visibleLines(s).slice(-4)).toEqual([
      '  ⚠ iteration limit approaching (8 of 10)',
      '  Complete: finished after 2 iteration(s) · 2 tool call(s), 1 failed',
      'host: bye',
      '[demo exited 0]',
    ]);
  });

  it('prints plain lines in a terminal when CI is set', async () => {
    const s = startDemo('CI=1', '--scenario ok');
    await waitFor(s, (t) => t.includes('Tool: file_read...'), 'the plain tool line');
    press(s);
    await waitFor(s, (t) => t.includes('Tool: web_search...'), 'the second tool line');
    press(s);
    await waitFor(s, (t) => t.includes('[demo exited 0]'), 'the demo to exit');
    const lines = visibleLines(s).map((l) => l.replace(/\(\d+(?:ms|\.\ds|s)\)/, '(T)'));
    expect(lines).toEqual([
      '  [progress] Starting: Summarize the README file',
      'host: loaded 3 files',
      '  [progress] Iteration 1/10',
      '  [progress] 10% Reading files',
      '  [progress] Tool: file_read...',
      '  [progress] Tool: file_read done — ok in 1.2s: # headway makes long-running agent loops legible',
      'host: cache warm',
      '  [progress] Iteration 2/10',
      '  [progress] 45% Analyzing input (ETA 20s)',
      '  [progress] Tool: web_search...',
      '  [progress] Warning: iteration limit approaching (8 of 10)',
      '  [progress] Tool: web_search done — error in 900ms: rate limited',
      '  [progress] 90% Writing summary',
      '  [progress] Complete: finished after 2 iteration(s) (T)',
      'host: bye',
      '[demo exited 0]',
    ]);
  });
});
