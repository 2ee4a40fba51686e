import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@headway/protocol';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Learnings } from '../memory/learnings.js';
import type { LearningsStore, PlaybookStore } from '../storage/context-store.js';
import { SqliteContextStore } from '../storage/sqlite-context-store.js';
import { classifyTask } from './classify-task.js';
import { PROMOTE_AFTER_SUCCESSES, Playbook } from './playbook.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const run = (task: string, toolCalls: string[], iterations = 3, durationMs = 30_000) => ({
  task,
  status: 'completed' as const,
  toolCalls,
  iterations,
  durationMs,
});

describe('Playbook', () => {
  it('records a successful tool-using run: task type, folded tool sequence and a prompt hint', async () => {
    const playbook = new Playbook({ clock: new ManualClock({ start: 42 }) });
    const pattern = await playbook.record(run('Fix the failing login test', ['read_file', 'read_file', 'edit_file', 'run_tests']));
    expect(pattern).toEqual({
      id: 'debug:read_file>edit_file>run_tests',
      taskType: 'debug',
      tools: ['read_file', 'edit_file', 'run_tests'],
      promptHint: 'For debug tasks such as "Fix the failing login test", this worked: read_file → edit_file → run_tests.',
      successes: 1,
      runs: [{ iterations: 3, durationMs: 30_000 }],
      keywords: ['fix', 'failing', 'login', 'test'],
      updatedAt: 42,
    });
  });

  it('records nothing for a run that failed, stopped short or used no tools', async () => {
    const playbook = new Playbook();
    expect(await playbook.record({ ...run('Fix the bug', ['read_file']), status: 'limit' })).toBeUndefined();
    expect(await playbook.record({ ...run('Fix the bug', ['read_file']), status: 'error' })).toBeUndefined();
    expect(await playbook.record(run('Fix the bug', []))).toBeUndefined();
    expect(await playbook.getRelevant('Fix the bug')).toEqual([]);
  });

  it(`flags a pattern for promotion after ${PROMOTE_AFTER_SUCCESSES} successes, not before`, async () => {
    const playbook = new Playbook();
    expect(PROMOTE_AFTER_SUCCESSES).toBe(3);
    await playbook.record(run('Fix the login bug', ['read_file', 'edit_file']));
    await playbook.record(run('Fix the signup bug', ['read_file', 'edit_file']));
    expect(await playbook.promotable()).toEqual([]);
    await playbook.record(run('Fix the logout bug', ['read_file', 'edit_file']));
    expect((await playbook.promotable()).map((p) => [p.id, p.successes])).toEqual([['debug:read_file>edit_file', 3]]);
  });

  it('getRelevant returns proven patterns of the same task type, most successes first', async () => {
    const playbook = new Playbook();
    await playbook.record(run('Fix the login bug', ['grep']));
    await playbook.record(run('Fix the signup bug', ['read_file', 'edit_file']));
    await playbook.record(run('Fix the payment bug', ['read_file', 'edit_file']));
    await playbook.record(run('Summarize the changelog', ['read_file']));
    expect((await playbook.getRelevant('Fix the login crash')).map((p) => p.id)).toEqual(['debug:read_file>edit_file', 'debug:grep']);
    expect((await playbook.getRelevant('Summarize the README')).map((p) => p.id)).toEqual(['summarize:read_file']);
  });

  it('hands the estimator the typical iterations and duration of a task type', async () => {
    const playbook = new Playbook();
    expect(await playbook.stats('Fix the bug')).toBeUndefined();
    await playbook.record(run('Fix the login bug', ['a'], 4, 40_000));
    await playbook.record(run('Fix the signup bug', ['b'], 6, 80_000));
    await playbook.record(run('Fix the payment bug', ['a'], 5, 50_000));
    expect(await playbook.stats('Fix another bug')).toEqual({
      taskType: 'debug',
      runs: 3,
      typicalIterations: 5,
      typicalDurationMs: 50_000,
      history: {
        runs: [
          { roundtrips: 4, durationMs: 40_000 },
          { roundtrips: 5, durationMs: 50_000 },
          { roundtrips: 6, durationMs: 80_000 },
        ],
      },
    });
  });

  it.each([
    ['Fix the crash on startup', 'debug'],
    ['Add tests for the parser', 'test'],
    ['Refactor the config loader', 'refactor'],
    ['Summarise this thread', 'summarize'],
    ['Research vector databases', 'research'],
    ['Write a blog post', 'write'],
    ['Hello there', 'general'],
  ])('classifyTask(%j) is %s', (task, type) => {
    expect(classifyTask(task)).toBe(type);
  });

  it('keeps patterns and learnings in a real SQLite file across instances', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-context-'));
    dirs.push(dir);
    const file = join(dir, 'memory.db');
    const first = new SqliteContextStore({ database: file });
    await new Playbook({ store: first }).record(run('Fix the login bug', ['read_file']));
    await new Learnings({ store: first, generateId: () => 'l1', clock: new ManualClock({ start: 7 }) }).add(
      'The staging database is read-only.',
    );
    first.close();
    const second = new SqliteContextStore({ database: file });
    expect((await new Playbook({ store: second }).getRelevant('Fix a bug')).map((p) => p.id)).toEqual(['debug:read_file']);
    expect(await new Learnings({ store: second }).all()).toEqual([{ id: 'l1', text: 'The staging database is read-only.', createdAt: 7 }]);
    second.close();
  });

  it('a corrupt store is reported once and the bad records are left out; an unreadable one is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-context-'));
    dirs.push(dir);
    const file = join(dir, 'memory.db');
    const store = new SqliteContextStore({ database: file });
    await new Playbook({ store }).record(run('Fix the login bug', ['read_file']));
    // Rows written behind the store's back, as a bug or another program could leave them.
    const db = new Database(file);
    db.prepare('INSERT INTO headway_playbook (id, json) VALUES (?, ?)').run('bad1', '{not json');
    db.prepare('INSERT INTO headway_playbook (id, json) VALUES (?, ?)').run(
      'bad2',
      JSON.stringify({ id: 'x', taskType: 'debug', tools: [], successes: -1 }),
    );
    db.close();
    const errors: [string, string][] = [];
    const playbook = new Playbook({ store, onInternalError: (e, { where }) => errors.push([where, (e as Error).message]) });
    expect((await playbook.getRelevant('Fix it')).map((p) => p.id)).toEqual(['debug:read_file']);
    await playbook.getRelevant('Fix it again');
    expect(errors).toEqual([['context.playbook.store', 'playbook store: 2 of 3 record(s) do not parse and are left out']]);
    store.close();

    const broken: PlaybookStore & LearningsStore = {
      loadPatterns: () => {
        throw new Error('disk I/O error');
      },
      savePattern: () => undefined,
      loadLearnings: () => Promise.resolve('nope' as unknown as unknown[]),
      saveLearning: () => undefined,
    };
    const reported: string[] = [];
    const onInternalError = (e: unknown): void => void reported.push((e as Error).message);
    expect(await new Playbook({ store: broken, onInternalError }).stats('Fix it')).toBeUndefined();
    expect(await new Learnings({ store: broken, onInternalError }).all()).toEqual([]);
    expect(reported).toEqual(['playbook store: could not be read; starting empty', 'learnings store: could not be read; starting empty']);
  });

  it('refuses bad options naming the field', () => {
    expect(() => new Playbook({ store: {} as PlaybookStore })).toThrow(
      'Invalid Playbook options: store: expected { loadPatterns, savePattern }',
    );
    expect(() => new Playbook({ classify: 'debug' as never })).toThrow('Invalid Playbook options: classify: expected a function');
  });
});
