import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { LangGraphError } from './langgraph-error.js';
import { parseOptions } from './options.js';

describe('LangGraphError', () => {
  it('names every invalid option, and is recognised by code', () => {
    let caught: unknown;
    try {
      parseOptions({ task: '', maxIterations: 0, maxSpendUsd: 1, extra: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LangGraphError);
    expect(HeadwayError.isInstance(caught, 'LANGGRAPH_INVALID_OPTIONS')).toBe(true);
    expect((caught as LangGraphError).message).toMatchInlineSnapshot(
      `"withHeadway: invalid options: task: must be a non-empty string; maxIterations: must be at least 1; (root): unrecognized key: "extra"; costOf: is required with maxSpendUsd"`,
    );
  });

  it('options that cannot be read are an error, not a crash', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys');
        },
        get: () => {
          throw new Error('no get');
        },
      },
    );
    expect(() => parseOptions(hostile)).toThrow(LangGraphError);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => parseOptions(proxy)).toThrow(LangGraphError);
  });
});
