// `headway watch` in a real terminal: tmux runs Claude Code-style input piped in at a live pace,
// and the test reads what a person would see with `capture-pane`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTestPart } from '@headway/test-utils';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BIN, fixture, PACKAGE_DIR } from '../run-cli.test-util.js';

const tmuxPath = findTestPart('HEADWAY_TMUX');
const socket = `headway-cli-test-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'headway-watch-tmux-'));
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

function tmux(...args: string[]): string {
  return execFileSync(tmuxPath ?? 'tmux', ['-L', socket, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TERM: process.env.TERM ?? 'xterm-256color' },
  });
}

function visibleLines(session: string): string[] {
  return tmux('capture-pane', '-p', '-t', session)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
}

async function waitForScreen(session: string, test: (text: string) => boolean): Promise<string> {
  let text = '';
  await vi.waitFor(
    () => {
      text = visibleLines(session).join('\n');
      expect(test(text), text).toBe(true);
    },
    { timeout: 40_000, interval: 100 },
  );
  return text;
}

afterAll(() => {
  if (tmuxPath !== undefined) spawnSync(tmuxPath, ['-L', socket, 'kill-server']);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(tmuxPath === undefined)('headway watch in a real terminal (tmux)', { timeout: 90_000 }, () => {
  it('draws the live block from a Claude Code stream as it arrives and leaves the summary', async () => {
    const go = join(dir, 'go');
    const pace = `node scripts/pace.mjs ${fixture('claude-code-todo.jsonl')} --every 40 --pause-after 9 --until ${go}`;
    const command = `env -u CI -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color sh -c '${pace} | node ${BIN} watch'; echo "[watch exited $?]"; exec sleep 600`;
    tmux('new-session', '-d', '-s', 'w1', '-x', '100', '-y', '30', '-c', PACKAGE_DIR, command);

    // Paused after the Read call was sent: it runs, with a spinner, under a bar with a percent.
    const mid = await waitForScreen('w1', (t) => /Read \d/.test(t));
    expect(mid).toMatch(new RegExp(`${SPINNER.source} claude-code`));
    expect(mid).toMatch(/^ {2}[█░]{29} {1,3}\d+% · \d+s/m);
    expect(mid).toMatch(new RegExp(`${SPINNER.source} Read \\d+(ms|\\.\\ds)`));
    expect(mid).toContain('✗ Bash');

    writeFileSync(go, '');
    const end = await waitForScreen('w1', (t) => t.includes('[watch exited 0]'));
    const lines = end.split('\n');
    expect(lines).toContain('✔ claude-code');
    expect(lines.some((l) => /^ {2}█{29} 100% · \d+s$/.test(l))).toBe(true);
    expect(end).toContain('Complete: Fixed the off-by-one in sum()');
    expect(end).not.toMatch(SPINNER);
  });
});
