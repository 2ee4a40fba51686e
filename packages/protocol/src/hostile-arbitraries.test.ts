import { describe, expect, it } from 'vitest';
import {
  HOSTILE_PARSER_RUN_PARAMETERS,
  HOSTILE_RUN_PARAMETERS,
  HOSTILE_TEST_TIMEOUT,
  MACHINE_LOAD_FACTOR,
  loadFactor,
} from './hostile-arbitraries.js';

describe('hostile fuzzing time limits', () => {
  it('read the machine as slower by its run queue per core, within 1–8', () => {
    expect(loadFactor([0.3, 0.5, 0.4], 2)).toBe(1);
    expect(loadFactor([6, 2, 1], 2)).toBe(3);
    expect(loadFactor([2, 10, 12], 2)).toBe(5);
    expect(loadFactor([60, 55, 40], 2)).toBe(8);
    expect(loadFactor([5, 5, 5], 0)).toBe(5);
    expect(loadFactor([Number.NaN, Number.NaN, 0], 2)).toBe(1);
    expect(loadFactor([], 4)).toBe(1);
  });

  it('stretch every limit by the factor read when the module loaded, keeping the vitest timeout above them', () => {
    expect(MACHINE_LOAD_FACTOR).toBeGreaterThanOrEqual(1);
    expect(MACHINE_LOAD_FACTOR).toBeLessThanOrEqual(8);
    expect(HOSTILE_RUN_PARAMETERS).toEqual({
      numRuns: 100,
      timeout: Math.round(2000 * MACHINE_LOAD_FACTOR),
      interruptAfterTimeLimit: Math.round(30_000 * MACHINE_LOAD_FACTOR),
      markInterruptAsFailure: true,
    });
    expect(HOSTILE_PARSER_RUN_PARAMETERS.interruptAfterTimeLimit).toBe(Math.round(60_000 * MACHINE_LOAD_FACTOR));
    expect(HOSTILE_TEST_TIMEOUT).toBeGreaterThan(HOSTILE_PARSER_RUN_PARAMETERS.interruptAfterTimeLimit);
  });
});
