import { describe, expect, it } from 'vitest';
import { createStallDetector, type StallChange, type StallDetector } from './stall-detector.js';

/** Feeds one call per iteration and returns every change, in order. */
function feed(
  detector: StallDetector,
  calls: readonly { name: string; args: unknown; result: unknown; ok?: boolean }[],
  from = 0,
): StallChange[] {
  const changes: StallChange[] = [];
  calls.forEach((call, i) => {
    const iteration = from + i;
    const change = detector.toolCall({ iteration, id: `call-${iteration}`, ok: true, ...call });
    if (change !== undefined) changes.push(change);
    const end = detector.iterationFinished(iteration);
    if (end !== undefined) changes.push(end);
  });
  return changes;
}

const ls = { name: 'bash', args: { command: 'ls src/work' }, result: 'a.ts\nb.ts' };

describe('createStallDetector', () => {
  it('reports the same call with the same result at its fifth copy, with the ids as evidence', () => {
    const detector = createStallDetector();
    const changes = feed(
      detector,
      Array.from({ length: 6 }, () => ls),
    );
    expect(changes).toEqual([
      {
        type: 'stall.detected',
        kind: 'repeated-call',
        evidence: { toolCallIds: ['call-0', 'call-1', 'call-2', 'call-3', 'call-4'], subject: 'ls src/work', repeats: 5 },
        since: 0,
      },
    ]);
    expect(detector.active?.kind).toBe('repeated-call');
  });

  it('treats arguments in another key order or with other whitespace as the same call', () => {
    const detector = createStallDetector({ repeatedCall: 3 });
    const changes = feed(detector, [
      { name: 'read', args: { path: 'a.ts', lines: 10 }, result: 'x' },
      { name: 'read', args: { lines: 10, path: ' a.ts' }, result: 'x' },
      { name: 'read', args: { lines: 10, path: 'a.ts\n' }, result: 'x' },
    ]);
    expect(changes.map((c) => c.type)).toEqual(['stall.detected']);
  });

  it('does not count a call whose result changed: waiting for a file to appear is not a loop', () => {
    const detector = createStallDetector();
    const changes = feed(
      detector,
      Array.from({ length: 8 }, (_, i) => ({ ...ls, result: `a.ts (${i} lines)` })),
    );
    expect(changes).toEqual([]);
  });

  it('never flags a varied run of 30 different calls', () => {
    const detector = createStallDetector();
    const changes = feed(
      detector,
      Array.from({ length: 30 }, (_, i) => ({
        name: ['read', 'edit', 'bash'][i % 3] ?? 'read',
        args: { path: `src/f${i}.ts` },
        result: `ok ${i}`,
      })),
    );
    expect(changes).toEqual([]);
    expect(detector.active).toBeUndefined();
  });

  it('reports the same failure four times as repeated-failure, and clears when a different call follows', () => {
    const detector = createStallDetector();
    const fail = { name: 'bash', args: { command: 'npm test' }, result: 'Error: missing script', ok: false };
    const changes = feed(detector, [fail, fail, fail, fail, fail, { name: 'read', args: { path: 'package.json' }, result: '{}' }]);
    expect(changes).toEqual([
      {
        type: 'stall.detected',
        kind: 'repeated-failure',
        evidence: { toolCallIds: ['call-0', 'call-1', 'call-2', 'call-3'], subject: 'npm test', repeats: 4 },
        since: 0,
      },
      { type: 'stall.cleared', kind: 'repeated-failure', since: 0 },
    ]);
  });

  it('reports A-B-A-B with unchanged results after four cycles', () => {
    const detector = createStallDetector();
    const a = { name: 'read_file', args: { path: 'a.ts' }, result: 'A' };
    const b = { name: 'write_file', args: { path: 'a.ts', content: 'x' }, result: 'written' };
    const changes = feed(detector, [a, b, a, b, a, b, a, b]);
    expect(changes).toEqual([
      {
        type: 'stall.detected',
        kind: 'ping-pong',
        evidence: {
          toolCallIds: ['call-0', 'call-1', 'call-2', 'call-3', 'call-4', 'call-5', 'call-6', 'call-7'],
          subject: 'read_file a.ts ↔ write_file a.ts',
          repeats: 4,
        },
        since: 0,
      },
    ]);
  });

  it('ignores poll tools: waiting on a job is not a loop', () => {
    const detector = createStallDetector({ pollTools: ['job_status'] });
    const changes = feed(
      detector,
      Array.from({ length: 10 }, () => ({ name: 'job_status', args: { id: 'j1' }, result: 'running' })),
    );
    expect(changes).toEqual([]);
  });

  it('reports no progress after 15 iterations without a new result or plan item, and clears on a plan item done', () => {
    const detector = createStallDetector({ repeatedCall: 1000, pingPongCycles: 1000 });
    const calls = [
      { name: 'a', args: 1, result: 'x' },
      { name: 'b', args: 2, result: 'y' },
      { name: 'c', args: 3, result: 'z' },
    ];
    // Three distinct results, then the same three over and over: a cycle of three no other detector sees.
    const changes = feed(
      detector,
      Array.from({ length: 18 }, (_, i) => calls[i % 3] ?? calls[0]!),
    );
    expect(changes).toEqual([
      {
        type: 'stall.detected',
        kind: 'no-progress',
        evidence: {
          toolCallIds: Array.from({ length: 15 }, (_, i) => `call-${i + 3}`),
          subject: 'no new result in 15 iterations',
          repeats: 15,
        },
        since: 3,
      },
    ]);
    detector.plan(1);
    expect(detector.iterationFinished(18)).toEqual({ type: 'stall.cleared', kind: 'no-progress', since: 3 });
  });

  it('reports the model writing the same text three turns in a row', () => {
    const detector = createStallDetector();
    expect(detector.text(0, 'Let me check the file again.')).toBeUndefined();
    expect(detector.text(1, 'let me check the file  again.')).toBeUndefined();
    expect(detector.text(2, 'Let me check the file again.')).toEqual({
      type: 'stall.detected',
      kind: 'repeated-text',
      evidence: { toolCallIds: [], subject: '"Let me check the file again."', repeats: 3 },
      since: 0,
    });
    expect(detector.text(3, 'Found it: the path was wrong.')).toEqual({ type: 'stall.cleared', kind: 'repeated-text', since: 0 });
  });

  it('redacts secrets in what it shows', () => {
    const detector = createStallDetector({ repeatedCall: 2 });
    const call = { name: 'bash', args: { command: 'curl -H "Authorization: Bearer sk-abcdefghijklmnopqrstuvwx1234" api' }, result: '401' };
    const [change] = feed(detector, [call, call]);
    expect(change?.type === 'stall.detected' && change.evidence.subject).not.toContain('sk-abcdefghijklmnopqrstuvwx1234');
  });

  it('rejects a threshold that is not an integer in range, naming it', () => {
    expect(() => createStallDetector({ repeatedCall: 1 })).toThrow('stall threshold repeatedCall must be an integer from 2 to 1000, got 1');
    expect(() => createStallDetector({ noProgressIterations: Number.NaN })).toThrow(/noProgressIterations/);
  });
});
