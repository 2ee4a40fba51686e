import { createIsolatedRunner } from '@headway/test-utils';
import { describe, expect, it } from 'vitest';
import { compileArgumentsCheck, createSchemaValidator } from './tool-arguments.js';

const { runIsolated } = createIsolatedRunner(import.meta.dirname);
// A `new URL(…, import.meta.url)`, so the helper the child imports counts as used.
const hostilePattern = new URL('./hostile-pattern.test-util.ts', import.meta.url).href;
const HOSTILE_TEST_TIMEOUT = 180_000;

describe('server-supplied patterns', () => {
  it(
    'a tool schema with pattern ^(a+)+$ and 34 characters of model arguments does not block (in a child process with a time limit)',
    () => {
      const run = runIsolated(
        `
        import { checkAgainstPattern } from '${hostilePattern}';
        void (async () => {
          const evil = await checkAgainstPattern(/^(a+)+$/, 'a'.repeat(34) + '!');
          const fine = await checkAgainstPattern(/^(a+)+$/, 'a'.repeat(34));
          const long = await checkAgainstPattern(/^(a|aa)+$/, 'a'.repeat(100_000) + '!');
          console.log(JSON.stringify([evil, fine, long]));
        })();
      `,
        120_000,
      );
      expect(run.signal).toBeNull();
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual([
        { valid: false, warnings: [] },
        { valid: true, warnings: [] },
        { valid: false, warnings: [] },
      ]);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'a pattern RE2 cannot run (a lookahead, a backreference) is left to the server, with a typed warning naming server and tool',
    () => {
      const run = runIsolated(
        `
        import { checkAgainstPattern } from '${hostilePattern}';
        void checkAgainstPattern(/^(?=a)(a)\\1$/, 'b').then((out) => console.log(JSON.stringify(out)));
      `,
        120_000,
      );
      expect(run.signal).toBeNull();
      const out = JSON.parse(run.stdout) as { valid: boolean; warnings: string[] };
      expect(out.valid).toBe(true);
      expect(out.warnings).toHaveLength(1);
      expect(out.warnings[0]).toMatch(
        /^schema match MCP_UNCHECKED_PATTERN: MCP server "hostile", tool "match": the pattern "\^\(\?=a\)\(a\)\\\\1\$" is not checked here \(.+\); the server checks its own input$/,
      );
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('patterns RE2 runs keep their meaning: anchors, classes, Unicode, partial matches', () => {
    const warnings: string[] = [];
    const check = compileArgumentsCheck(
      {
        type: 'object',
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' },
          word: { type: 'string', pattern: 'é' },
          email: { type: 'string', format: 'email' },
        },
        patternProperties: { '^x-': { type: 'number' } },
      },
      createSchemaValidator((pattern) => warnings.push(pattern)),
    );
    expect(check({ code: 'AB-123', word: 'café', email: 'a@b.co', 'x-n': 1 })).toEqual([]);
    expect(check({ code: 'AB-1234' })[0]).toMatch(/code.*must match pattern/);
    expect(check({ word: 'cafe' })[0]).toMatch(/word.*must match pattern/);
    expect(check({ email: 'nope' })[0]).toMatch(/email.*must match format/);
    expect(check({ 'x-n': 'one' })[0]).toMatch(/must be number/);
    expect(warnings).toEqual([]);
  });
});
