import { HeadwayError } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBridgeOptionsParser, hasMethod, type BridgeOptions } from './bridge-options.js';

class KitError extends HeadwayError<'KIT_INVALID_OPTIONS'> {}

interface KitOptions extends BridgeOptions {
  planKey?: string;
  model?: { invoke(): void };
}

const parse = createBridgeOptionsParser<KitOptions>(
  {
    planKey: z.string().min(1).optional(),
    maxIterations: z.number().int().min(2, 'must be at least 2').optional(),
    model: hasMethod<{ invoke(): void }>('invoke', 'must have invoke()').optional(),
  },
  (message, details) => new KitError('KIT_INVALID_OPTIONS', message, details),
);

const failure = (input: unknown): HeadwayError => {
  try {
    parse(input);
  } catch (error) {
    if (HeadwayError.isInstance(error, 'KIT_INVALID_OPTIONS')) return error;
    throw error;
  }
  throw new Error('parsed');
};

describe('createBridgeOptionsParser', () => {
  it('returns the options as given: the shared fields and the bridge’s own', () => {
    const options = { task: 'Do it', planKey: 'todos', maxIterations: 2, model: { invoke: () => undefined }, sinks: [() => undefined] };
    expect(parse(options)).toBe(options);
  });

  it('names every invalid field in the bridge’s own error; its fields replace the shared ones', () => {
    const error = failure({ task: '', maxIterations: 1, planKey: '', model: {}, extra: 1 });
    expect(error.message).toMatchInlineSnapshot(
      `"withHeadway: invalid options: task: must be a non-empty string; maxIterations: must be at least 2; planKey: too small: expected string to have >=1 characters; model: must have invoke(); (root): unrecognized key: "extra""`,
    );
    expect(error.issues.map((i) => i.path)).toEqual(['task', 'maxIterations', 'planKey', 'model', '']);
  });

  it('checks the fields that go together', () => {
    expect(failure({ task: 't', maxSpendUsd: 1, hub: { emit() {} }, sinks: [] }).message).toBe(
      'withHeadway: invalid options: costOf: is required with maxSpendUsd; sinks: cannot be given with hub: add them to the hub',
    );
  });

  it('options that cannot be read are the typed error, not a crash', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(failure(proxy).message).toContain('(root): could not be read');
    const throwing = Object.defineProperty({}, 'task', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    expect(failure(throwing).message).toContain('could not be read');
    expect(failure(null).issues).toHaveLength(1);
  });
});
