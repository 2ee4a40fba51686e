import { describe, expect, it } from 'vitest';
import { stallFingerprint } from './fingerprint.js';

describe('stallFingerprint', () => {
  it('is the same for the same value in another key order or spacing, and differs for another value', () => {
    expect(stallFingerprint({ b: [1, 'x  y'], a: null })).toBe(stallFingerprint({ a: null, b: [1, ' x y '] }));
    expect(stallFingerprint({ a: 1 })).not.toBe(stallFingerprint({ a: 2 }));
    expect(stallFingerprint('1')).not.toBe(stallFingerprint(1));
    expect(stallFingerprint([])).not.toBe(stallFingerprint({}));
  });

  it('tells long strings apart by their length past what it reads', () => {
    const base = 'x'.repeat(100 * 1024);
    expect(stallFingerprint(base)).not.toBe(stallFingerprint(`${base}y`));
  });

  it('turns a throwing getter or a revoked proxy into a token instead of an exception', () => {
    const getter = Object.defineProperty({}, 'a', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(stallFingerprint(getter)).toBe(stallFingerprint(getter));
    expect(typeof stallFingerprint(proxy)).toBe('string');
    expect(typeof stallFingerprint({ p: proxy })).toBe('string');
  });
});
