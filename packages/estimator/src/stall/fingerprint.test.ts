import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stallFingerprint, stallFingerprintKey } from './fingerprint.js';

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

// The fingerprint as it was first written: every piece built as a string, then hashed. The
// incremental form must give the very same digest, so every equality rule stays as it was.
function referenceFingerprint(value: unknown): string {
  let h = 0x811c9dc5;
  let n = 0;
  const add = (text: string): void => {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    n += text.length;
  };
  const budget = { nodes: 4096, chars: 64 * 1024 };
  const walk = (v: unknown, depth: number): void => {
    budget.nodes -= 1;
    if (budget.nodes < 0) {
      add('…');
      return;
    }
    if (typeof v === 'string') {
      const read = v.slice(0, Math.max(0, budget.chars));
      budget.chars -= read.length;
      add('s');
      add(read.length <= 1024 ? read.replace(/\s+/g, ' ').trim() : read);
      if (read.length < v.length) add(`…${v.length}`);
      add('\u0000');
      return;
    }
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
      add(`${typeof v}:${String(v)}\u0000`);
      return;
    }
    if (v === undefined) {
      add('u\u0000');
      return;
    }
    if (typeof v === 'symbol' || typeof v === 'function') {
      add(`${typeof v}\u0000`);
      return;
    }
    if (v === null) {
      add('n\u0000');
      return;
    }
    if (depth >= 32) {
      add('deep\u0000');
      return;
    }
    try {
      if (Array.isArray(v)) {
        add(`[${v.length}`);
        const count = Math.min(v.length, Math.max(0, budget.nodes));
        for (let i = 0; i < count; i++) walk(v[i], depth + 1);
        add(']');
        return;
      }
      const keys = Object.keys(v).sort();
      add(`{${keys.length}`);
      for (const key of keys) {
        if (budget.nodes <= 0) break;
        add(key.slice(0, 200));
        add('=');
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
      add('}');
    } catch {
      add('unreadable\u0000');
    }
  };
  try {
    walk(value, 0);
  } catch {
    add('unreadable\u0000');
  }
  return `${(h >>> 0).toString(36)}.${n.toString(36)}`;
}

/** Every character `\s` matches, and a few it does not (zero-width space, NEL, control characters). */
const SPACES = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2005',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];
const NEAR_SPACES = ['\u200b', '\u0085', '\u0000', '\u001f', '\u180e', 'a', 'é', '😀'];

describe('stallFingerprint, hashed in place', () => {
  it('gives the same digest as building each piece as a string and hashing it (property)', () => {
    const text = fc.oneof(
      fc.string(),
      fc.array(fc.constantFrom(...SPACES, ...NEAR_SPACES), { maxLength: 40 }).map((chars) => chars.join('')),
      fc.string({ unit: 'binary', maxLength: 2000 }),
    );
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.bigInt(), fc.constant(null), fc.constant(undefined)),
      node: fc.oneof(
        { maxDepth: 4 },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 6 }),
        fc.dictionary(text, tie('node'), { maxKeys: 6 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(stallFingerprint(v)).toBe(referenceFingerprint(v));
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('agrees with that form past every bound: long, over-long and huge strings, many values, deep nesting, long keys', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 40; i++) deep = { [`k${i}`]: deep };
    const cases: unknown[] = [
      ` ${'a '.repeat(512)}`,
      'a\u3000'.repeat(600),
      'x'.repeat(70 * 1024),
      ['y'.repeat(60 * 1024), '  z  z  ', 'w'.repeat(10 * 1024)],
      Array.from({ length: 5000 }, (_, i) => i),
      { ['k'.repeat(300)]: 1, b: 4294967296, c: 4294967295, d: 1e21, e: -0, f: Number.NaN },
      deep,
      Symbol('s'),
      () => 1,
      '',
      '   ',
    ];
    for (const c of cases) expect(stallFingerprint(c)).toBe(referenceFingerprint(c));
  });
});

describe('stallFingerprintKey', () => {
  it('tells two values apart exactly when stallFingerprint does (property)', () => {
    // A small pool, with values equal up to key order and spacing, so that equal pairs are common.
    const value = fc.oneof(
      fc.constantFrom('ok', ' ok ', 'o k', 1, '1', true, null, undefined, [], {}),
      fc.constantFrom({ a: 1, b: 'x y' }, { b: ' x  y', a: 1 }, { a: 2 }, [1, 'ok'], ['ok', 1]),
      fc.jsonValue({ maxDepth: 2 }),
    );
    let equal = 0;
    fc.assert(
      fc.property(value, value, (a, b) => {
        const same = stallFingerprint(a) === stallFingerprint(b);
        if (same) equal += 1;
        expect(stallFingerprintKey(a) === stallFingerprintKey(b)).toBe(same);
        expect(stallFingerprintKey(a)).not.toContain('\u0000');
      }),
      { numRuns: 3000 },
    );
    expect(equal).toBeGreaterThan(100);
  });
});
