import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { loadProgressConfig, progressConfigSchema } from './progress-config.js';

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
    const path = agentJson(JSON.stringify({ progress: { fallbackSteps: [{ name: 'a', weight: 30 }, { name: 'b', weight: -5 }] } }));
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
