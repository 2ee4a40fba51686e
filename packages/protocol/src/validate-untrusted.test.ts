import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateUntrusted } from './validate-untrusted.js';

describe('validateUntrusted', () => {
  const schema = z.array(z.number());

  it('gives the parsed value', () => {
    expect(validateUntrusted(schema, [1, 2])).toEqual({ success: true, data: [1, 2] });
  });

  it('keeps the first 20 issues and counts the rest', () => {
    const result = validateUntrusted(
      schema,
      Array.from({ length: 25 }, () => 'x'),
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.issues).toHaveLength(21);
    expect(result.issues[0]).toEqual({ path: '[0]', message: 'invalid input: expected number, received string' });
    expect(result.issues.at(-1)).toEqual({ path: '', message: 'and 5 more issues' });
  });

  it('turns input that throws while it is read into one issue with the thrown value as cause', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const result = validateUntrusted(schema, proxy);
    expect(result).toMatchObject({
      success: false,
      issues: [{ path: '', message: expect.stringMatching(/^could not be read \(/) as string }],
    });
    expect(result.success ? undefined : result.cause).toBeInstanceOf(TypeError);
  });
});
