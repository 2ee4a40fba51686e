import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HOSTILE_RUN, HOSTILE_TEST_TIMEOUT, hostileString } from './hostile.test-util.js';
import { MAX_CONFIG_BYTES, loadProgressConfig, parseProgressConfigText, progressConfigSchema } from './progress-config.js';

const dir = mkdtempSync(join(tmpdir(), 'headway-estimator-'));
function agentJson(content: string, name = 'agent.json'): string {
  const sub = mkdtempSync(join(dir, 'a-'));
  const path = join(sub, name);
  writeFileSync(path, content);
  return path;
}

async function errorOf(promise: Promise<unknown>): Promise<HeadwayError> {
  try {
    await promise;
  } catch (e) {
    if (HeadwayError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('progressConfigSchema', () => {
  it('fills the defaults', () => {
    expect(progressConfigSchema.parse({})).toEqual({ aiDriven: true, fallbackSteps: [] });
    expect(progressConfigSchema.parse({ aiDriven: false })).toEqual({ aiDriven: false, fallbackSteps: [] });
  });
});

describe('loadProgressConfig', () => {
  it('reads the progress block of an agent.json', async () => {
    const path = agentJson(
      JSON.stringify({
        name: 'flights',
        progress: {
          aiDriven: true,
          fallbackSteps: [
            { name: 'Parsing request', weight: 10 },
            { name: 'Searching flights', weight: 60 },
          ],
        },
      }),
    );
    expect(await loadProgressConfig(path)).toEqual({
      aiDriven: true,
      fallbackSteps: [
        { name: 'Parsing request', weight: 10 },
        { name: 'Searching flights', weight: 60 },
      ],
    });
  });

  it('gives the defaults when there is no progress block', async () => {
    expect(await loadProgressConfig(agentJson('{"name":"x"}'))).toEqual({ aiDriven: true, fallbackSteps: [] });
  });

  it('names the file and the JSON path of a bad weight', async () => {
    const path = agentJson(
      JSON.stringify({
        progress: {
          fallbackSteps: [
            { name: 'a', weight: 30 },
            { name: 'b', weight: -5 },
          ],
        },
      }),
    );
    const error = await errorOf(loadProgressConfig(path));
    expect(error.code).toBe('ESTIMATOR_INVALID_CONFIG');
    expect(error.message).toBe('agent.json: progress.fallbackSteps[1].weight: expected a positive number');
  });

  it('names every problem: wrong types, unknown keys, a missing name', async () => {
    const path = agentJson(JSON.stringify({ progress: { aiDriven: 'yes', fallbackSteps: [{ weight: '20' }], colour: 1 } }), 'worker.json');
    const error = await errorOf(loadProgressConfig(path));
    expect(error.message).toMatch(/^worker\.json: /);
    expect(error.message).toContain('progress.aiDriven: expected true or false');
    expect(error.message).toContain('progress.fallbackSteps[0].name: expected a string');
    expect(error.message).toContain('progress.fallbackSteps[0].weight: expected a positive number');
    expect(error.message).toContain('progress: unrecognized key: "colour"');
  });

  it('reports text that is not JSON, a file that is not an object, and a missing file', async () => {
    expect((await errorOf(loadProgressConfig(agentJson('{ "progress": ')))).message).toMatch(/^agent\.json: not valid JSON/);
    expect((await errorOf(loadProgressConfig(agentJson('[1,2]')))).message).toBe('agent.json: (root): expected a JSON object');
    expect((await errorOf(loadProgressConfig(join(dir, 'missing', 'agent.json')))).message).toMatch(/^agent\.json: cannot be read/);
  });
});

describe('loadProgressConfig on hostile input', () => {
  it('accepts an agent.json that starts with a UTF-8 byte order mark', async () => {
    expect(await loadProgressConfig(agentJson('\uFEFF{"progress":{"aiDriven":false}}'))).toEqual({ aiDriven: false, fallbackSteps: [] });
  });

  it('rejects a path that is not a string with the typed error, not a TypeError', async () => {
    const error = await errorOf(loadProgressConfig(42 as unknown as string));
    expect([error.code, error.message]).toEqual([
      'ESTIMATOR_INVALID_CONFIG',
      'loadProgressConfig: expected the path of an agent.json, got 42',
    ]);
  });

  it('refuses a file over MAX_CONFIG_BYTES before reading it', async () => {
    const error = await errorOf(loadProgressConfig(agentJson(`{"pad":"${'x'.repeat(MAX_CONFIG_BYTES)}"}`)));
    expect(error.message).toBe(`agent.json: the file is ${MAX_CONFIG_BYTES + 10} bytes; the limit is 1048576`);
  });

  it('lists at most 20 issues, then how many more', async () => {
    const steps = Array.from({ length: 1_000 }, () => ({ name: '', weight: -1 }));
    const error = await errorOf(loadProgressConfig(agentJson(JSON.stringify({ progress: { fallbackSteps: steps } }))));
    expect(error.issues).toHaveLength(21);
    expect(error.issues[20]?.message).toBe('and 1980 more issues');
    const tooMany = await errorOf(loadProgressConfig(agentJson(JSON.stringify({ progress: { fallbackSteps: [...steps, ...steps] } }))));
    expect(tooMany.message).toBe('agent.json: progress.fallbackSteps: expected at most 1000 steps, got 2000');
  });

  it(
    'parses any text to a config or ESTIMATOR_INVALID_CONFIG (property, hostile generators, time-limited)',
    async () => {
      const configish = fc
        .record(
          {
            progress: fc.record({
              aiDriven: fc.anything(),
              fallbackSteps: fc.array(fc.record({ name: fc.anything(), weight: fc.oneof(fc.double(), fc.anything()) })),
            }),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v));
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            configish,
            hostileString,
            hostileString.map((s) => `\uFEFF${s}`),
          ),
          async (text) => {
            try {
              const config = parseProgressConfigText(text, 'agent.json');
              expect(typeof config.aiDriven).toBe('boolean');
            } catch (e) {
              expect(HeadwayError.isInstance(e, 'ESTIMATOR_INVALID_CONFIG')).toBe(true);
              expect((e as HeadwayError).issues.length).toBeLessThanOrEqual(21);
            }
            await Promise.resolve();
          },
        ),
        HOSTILE_RUN,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );
});
