import { describe, expect, it } from 'vitest';
import { adoptThenable, describeThrown, errorMessage, isThenable } from './untrusted.js';

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const hostile = {
  revokedProxy: revoked(),
  throwingToString: Object.assign(() => undefined, {
    toString() {
      throw new Error('toString');
    },
  }),
  toJsonUndefined: {
    toJSON: () => undefined,
    toString() {
      throw new Error('toString');
    },
  },
  throwingMessage: new (class extends Error {
    override get message(): string {
      throw new Error('getter');
    }
  })(),
};

describe('describeThrown', () => {
  it('describes ordinary values', () => {
    expect(describeThrown(new Error('boom'))).toBe('boom');
    expect(describeThrown(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeThrown('text')).toBe('text');
    expect(describeThrown(42)).toBe('42');
    expect(describeThrown(null)).toBe('null');
    expect(describeThrown(undefined)).toBe('undefined');
    expect(describeThrown({ a: 1 })).toBe('[object]');
    expect(describeThrown([1])).toBe('[array]');
    expect(describeThrown(function named() {})).toBe('[function named]');
  });

  it('never throws on hostile values', () => {
    expect(describeThrown(hostile.revokedProxy)).toBe('[unreadable object]');
    expect(describeThrown(hostile.throwingToString)).toBe('[function]');
    expect(describeThrown(hostile.toJsonUndefined)).toBe('[object]');
    expect(describeThrown(hostile.throwingMessage)).toBe('[object]');
  });

  it('bounds the length', () => {
    const text = describeThrown('x'.repeat(1_000_000), 100);
    expect(text.length).toBeLessThan(150);
    expect(text).toMatch(/999900 more characters/);
  });

  it('errorMessage prefers the message', () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage(hostile.revokedProxy)).toBe('[unreadable object]');
  });
});

describe('adoptThenable', () => {
  it('returns undefined for non-thenables, including hostile ones', () => {
    expect(adoptThenable(1)).toBeUndefined();
    expect(adoptThenable(hostile.revokedProxy)).toBeUndefined();
    const getterThrows = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('getter');
      },
    });
    expect(adoptThenable(getterThrows)).toBeUndefined();
    expect(isThenable(getterThrows)).toBe(false);
  });

  it('turns a throwing then into a rejection', async () => {
    const lying = {
      then() {
        throw new Error('then threw');
      },
    };
    expect(isThenable(lying)).toBe(true);
    await expect(adoptThenable(lying)).rejects.toThrow('then threw');
  });

  it('settles once when then calls back twice', async () => {
    const twice = {
      then(resolve: (v: unknown) => void, reject: (e: unknown) => void) {
        resolve(1);
        reject(new Error('late'));
        resolve(2);
      },
    };
    await expect(adoptThenable(twice)).resolves.toBe(1);
  });
});
