import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolResultPreview } from './tool-result-preview.js';

describe('toolResultPreview', () => {
  it('collapses whitespace and keeps short results whole', () => {
    expect(toolResultPreview('  Found 15\n\tmatching   records. ')).toBe('Found 15 matching records.');
    expect(toolResultPreview({ rows: 15, ok: true })).toBe('{"rows":15,"ok":true}');
    expect(toolResultPreview(new Error('ENOENT: no such file'))).toBe('ENOENT: no such file');
    expect(toolResultPreview(undefined)).toBe('');
    expect(toolResultPreview(null)).toBe('null');
    expect(toolResultPreview(42)).toBe('42');
    expect(toolResultPreview(10n)).toBe('10');
  });

  it('cuts long results to exactly maxLength, ellipsis included', () => {
    const long = 'Found 15 matching records. First result: Order #1234 placed on 2025-01-03 by a customer in Lisbon, Portugal.';
    expect(toolResultPreview(long, 40)).toBe('Found 15 matching records. First resu...');
    expect(toolResultPreview(long, 40)).toHaveLength(40);
    expect(toolResultPreview('x'.repeat(101))).toHaveLength(100);
    expect(toolResultPreview('abcdef', 3)).toBe('...');
    expect(toolResultPreview('abcdef', 0)).toBe('');
  });

  it('handles circular structures and hostile objects without throwing', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(toolResultPreview(a)).toBe('{"name":"a","self":"[Circular]"}');
    const hostile = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(typeof toolResultPreview(hostile)).toBe('string');
  });

  it('never throws and never exceeds maxLength for any input', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 0, max: 300 }), (value, max) => {
        const preview = toolResultPreview(value, max);
        expect(preview.length).toBeLessThanOrEqual(max);
        expect(preview).not.toMatch(/\s\s|^\s|\s$/);
      }),
      { numRuns: 500 },
    );
  });

  it('never leaves half a surrogate pair at the cut', () => {
    const preview = toolResultPreview('ab😀😀😀😀', 6);
    expect(preview).toHaveLength(6);
    expect(preview).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('redacts secrets before it cuts, so no half secret is left; redact: false keeps the text', () => {
    const result =
      'deploy ok\nOPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx\nDB_PASSWORD=hunter2-correct-horse\nAuthorization: Bearer abcdefghijklmnop';
    expect(toolResultPreview(result, 200)).toBe(
      'deploy ok OPENAI_API_KEY=[REDACTED] DB_PASSWORD=[REDACTED] Authorization: Bearer [REDACTED]',
    );
    // Cut where the key stood: the preview shows the censor, never a piece of the key.
    expect(toolResultPreview(result, 40)).toBe('deploy ok OPENAI_API_KEY=[REDACTED] D...');
    expect(toolResultPreview({ env: result }, 300)).not.toMatch(/sk-proj|hunter2|abcdefghijklmnop/);
    expect(toolResultPreview(result, 60, { redact: { censor: '***' } })).toBe(
      'deploy ok OPENAI_API_KEY=*** DB_PASSWORD=*** Authorizatio...',
    );
    expect(toolResultPreview(result, 200, { redact: false })).toContain('sk-proj-AbCdEfGhIjKlMnOpQrStUvWx');
  });

  it('reads only the head of a huge string result', () => {
    expect(toolResultPreview(`${'x'.repeat(10)}${' '.repeat(200_000)}tail`, 20)).toBe('xxxxxxxxxx');
    expect(toolResultPreview('y'.repeat(10_000_000), 8)).toBe('yyyyy...');
  });
});
