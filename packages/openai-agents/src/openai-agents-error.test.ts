import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { OpenAIAgentsError } from './openai-agents-error.js';
import { parseOptions } from './options.js';

describe('OpenAIAgentsError', () => {
  it('names every invalid option, and is recognised by code', () => {
    let caught: unknown;
    try {
      parseOptions({ task: '', maxIterations: 1, maxSpendUsd: 1, extra: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(OpenAIAgentsError);
    expect(HeadwayError.isInstance(caught, 'OPENAI_AGENTS_INVALID_OPTIONS')).toBe(true);
    expect((caught as OpenAIAgentsError).message).toMatchInlineSnapshot(
      `"withHeadway: invalid options: task: must be a non-empty string; maxIterations: must be at least 2 (one working call and the report call); (root): unrecognized key: "extra"; costOf: is required with maxSpendUsd"`,
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
    expect(() => parseOptions(hostile)).toThrow(OpenAIAgentsError);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => parseOptions(proxy)).toThrow(OpenAIAgentsError);
  });
});
