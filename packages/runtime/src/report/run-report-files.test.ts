import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError, type ProgressReport } from '@headway/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { readRunReport, saveRunReport } from './run-report-files.js';

const real: ProgressReport = {
  task: 'Summarize the README file',
  reason: 'max-iterations',
  completedWork: ['file_read({"path":"README.md"}) (iteration 1)'],
  keyFindings: ['README.md: headway makes agent loops legible'],
  attemptedInconclusive: [],
  remaining: ['Write the summary'],
  suggestedNextSteps: ['Resume the plan at item 2: Write the summary'],
  stats: { iterations: 2, toolCalls: 1, elapsedMs: 40 },
  generatedBy: 'fallback',
};
const empty: ProgressReport = {
  ...real,
  reason: 'error',
  completedWork: [],
  keyFindings: [],
  attemptedInconclusive: ['The run stopped on an error: OPENAI_API_KEY is not set'],
  remaining: ['The task, not finished when the run stopped: Summarize the README file'],
  stats: { iterations: 0, toolCalls: 0, elapsedMs: 1 },
};

const dirs: string[] = [];
function reportsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'headway-reports-'));
  dirs.push(dir);
  return join(dir, 'reports');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('saveRunReport', () => {
  it('keeps each report under its run id and moves latest only to a report with content', () => {
    const dir = reportsDir();
    expect(saveRunReport(dir, { runId: 'run-1', report: real })).toEqual({ path: join(dir, 'run-1.json'), latest: true });
    // A run that failed before doing anything (no API key) keeps its report, but not as the latest.
    expect(saveRunReport(dir, { runId: 'run-2', report: empty })).toEqual({ path: join(dir, 'run-2.json'), latest: false });
    expect(readRunReport(join(dir, 'latest.json'))).toEqual({ runId: 'run-1', report: real });
    expect(readRunReport(join(dir, 'run-2.json'))).toEqual({ runId: 'run-2', report: empty });
    expect(saveRunReport(dir, { runId: 'run-3', parentRunId: 'run-1', report: { ...real, reason: 'cancelled' } })?.latest).toBe(true);
    expect(readRunReport(join(dir, 'latest.json'))).toEqual({
      runId: 'run-3',
      parentRunId: 'run-1',
      report: { ...real, reason: 'cancelled' },
    });
  });

  it('writes nothing for a run without a report, and refuses a run id that is not a file name', () => {
    const dir = reportsDir();
    expect(saveRunReport(dir, { runId: 'run-1' })).toBeUndefined();
    for (const runId of ['../escape', '', 'a/b', '.hidden']) {
      const error = (() => {
        try {
          saveRunReport(dir, { runId, report: real });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(HeadwayError.isInstance(error, 'RUNTIME_INVALID_CONTINUATION')).toBe(true);
    }
  });
});

describe('readRunReport', () => {
  function failure(path: string): string {
    try {
      readRunReport(path);
    } catch (error) {
      expect(HeadwayError.isInstance(error, 'RUNTIME_INVALID_CONTINUATION')).toBe(true);
      return (error as Error).message.replace(path, 'FILE');
    }
    throw new Error('expected readRunReport to throw');
  }

  it('says what is wrong and where', () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-reports-'));
    dirs.push(dir);
    const file = join(dir, 'bad.json');
    expect(failure(join(dir, 'missing.json'))).toMatch(/^FILE: ENOENT/);
    writeFileSync(file, '{"task": ');
    expect(failure(file)).toMatch(/^FILE: .*JSON/);
    writeFileSync(file, JSON.stringify({ ...real, reason: 'bored' }));
    expect(failure(file)).toMatch(/^FILE: not a progress report: reason: /);
    writeFileSync(join(dir, 'latest.json'), JSON.stringify(real));
    expect(failure(join(dir, 'latest.json'))).toBe('FILE: no runId: the report does not say which run it is of');
  });

  it('reads a bare report named after its run, as the CLI and older demos wrote them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-reports-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'run-7.json'), JSON.stringify(real));
    expect(readRunReport(join(dir, 'run-7.json'))).toEqual({ runId: 'run-7', report: real });
    expect(JSON.parse(readFileSync(join(dir, 'run-7.json'), 'utf8'))).toEqual(real);
  });
});
