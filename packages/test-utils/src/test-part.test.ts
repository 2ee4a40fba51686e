import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { findTestPart } from './test-part.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-test-part-'));
const tmux = join(dir, 'tmux');
writeFileSync(tmux, '#!/bin/sh\n');
chmodSync(tmux, 0o755);
writeFileSync(join(dir, 'chromium'), 'not executable');
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('findTestPart', () => {
  it('takes the path the test command set', () => {
    expect(findTestPart('HEADWAY_TMUX', { env: { HEADWAY_TMUX: '/opt/tmux', PATH: dir } })).toBe('/opt/tmux');
  });

  it('finds the known program on PATH when the variable is unset, skipping files that are not executable', () => {
    expect(findTestPart('HEADWAY_TMUX', { env: { PATH: dir } })).toBe(tmux);
    expect(findTestPart('HEADWAY_CHROMIUM_PATH', { env: { PATH: dir }, warn: false })).toBeUndefined();
  });

  it('says why the tests skip when the test command found nothing (empty variable), even if PATH has it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(findTestPart('HEADWAY_TMUX', { env: { HEADWAY_TMUX: '', PATH: dir } })).toBeUndefined();
    expect(warn.mock.calls).toEqual([
      ['skipped: no tmux found; run `npm test` at the repository root (it finds or installs it), set HEADWAY_TMUX, or put it on PATH'],
    ]);
    warn.mockRestore();
  });

  it('looks for the names it is given for a part it does not know', () => {
    expect(findTestPart('HEADWAY_OTHER', { env: { PATH: dir }, names: ['nope', 'tmux'] })).toBe(tmux);
  });
});
