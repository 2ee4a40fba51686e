// Report files and continuations are read back from disk or a request: hostile input gives a
// typed RUNTIME_INVALID_CONTINUATION or a valid report, never a crash, in bounded time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError } from '@headway/protocol';
import { HOSTILE_PARSER_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileParserInput } from '@headway/protocol/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { readRunReport } from './run-report-files.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-report-fuzz-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const report = {
  task: 'Summarize the README file',
  reason: 'max-iterations',
  completedWork: ['read README.md'],
  keyFindings: [],
  attemptedInconclusive: [],
  remaining: ['Write the summary'],
  suggestedNextSteps: [],
  stats: { iterations: 2, toolCalls: 1, elapsedMs: 3 },
  generatedBy: 'fallback',
};
const hostile = hostileParserInput({
  markers: ['"runId"', '"task"', '"reason"', '"stats"', '"max-iterations"', '"completedWork"'],
  repeat: ['{"runId":', '["', '"a",'],
  nesting: [
    ['{"runId":', '}'],
    ['[', ']'],
  ],
  shapes: [() => ({ runId: 'run-1', ...report }), () => ({ runId: 'run-1', report })],
});

function outcome(fn: () => unknown): 'ok' | 'invalid' {
  try {
    fn();
    return 'ok';
  } catch (error) {
    expect(HeadwayError.isInstance(error, 'RUNTIME_INVALID_CONTINUATION')).toBe(true);
    return 'invalid';
  }
}

describe('readRunReport and continueRun on hostile input', () => {
  it(
    'reads any file as a valid report or a typed error',
    () => {
      const file = join(dir, 'run-1.json');
      fc.assert(
        fc.property(hostile.string, (text) => {
          writeFileSync(file, text);
          outcome(() => readRunReport(file));
        }),
        HOSTILE_PARSER_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'refuses any value that is not a continuation with a typed error; a valid one runs',
    async () => {
      const runtime = new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider([]) });
      await fc.assert(
        fc.asyncProperty(hostile.withHoles(fc.constant({ runId: 'run-1', report })), async (make) => {
          const settled = await runtime.continueRun(make() as Parameters<AgentRuntime['continueRun']>[0]).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          // A valid continuation (no hole drawn) runs, and fails on the script-less model; anything else is refused.
          if ('result' in settled) expect(settled.result.end).toEqual({ state: 'failed' });
          else expect(HeadwayError.isInstance(settled.error, 'RUNTIME_INVALID_CONTINUATION')).toBe(true);
        }),
        HOSTILE_PARSER_RUN_PARAMETERS,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
