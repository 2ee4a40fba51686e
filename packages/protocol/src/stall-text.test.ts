import { describe, expect, it } from 'vitest';
import { describeStall } from './stall-text.js';

describe('describeStall', () => {
  it('says what repeated and how often, one line per kind', () => {
    const evidence = { toolCallIds: ['c1'], subject: 'ls src/work', repeats: 5 };
    expect(describeStall({ kind: 'repeated-call', evidence })).toBe('ls src/work 5× with the same result');
    expect(describeStall({ kind: 'repeated-failure', evidence: { ...evidence, subject: 'npm test', repeats: 4 } })).toBe(
      'npm test failed 4× the same way',
    );
    expect(describeStall({ kind: 'ping-pong', evidence: { ...evidence, subject: 'read a ↔ write a', repeats: 4 } })).toBe(
      'read a ↔ write a 4× with unchanged results',
    );
    expect(describeStall({ kind: 'no-progress', evidence: { ...evidence, repeats: 15 } })).toBe(
      'no new result or plan item in 15 iterations',
    );
    expect(describeStall({ kind: 'repeated-text', evidence: { ...evidence, subject: '"Let me check\nagain"', repeats: 3 } })).toBe(
      'the same text 3× in a row: "Let me check again"',
    );
  });
});
