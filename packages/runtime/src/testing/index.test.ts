// `@headway/runtime/testing` is for scripts as well as tests: importing it (the built entry, as a
// user's demo script would) loads neither vitest, esbuild nor fast-check; the conformance entry does.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const packageDir = new URL('../..', import.meta.url).pathname;

/** A resolve hook that refuses the test runner, the bundler and fast-check, so loading one fails loudly. */
const refuse = `export async function resolve(specifier, context, next) {
  if (/^(vitest|esbuild|fast-check)(\\/|$)/.test(specifier)) throw new Error('refused: ' + specifier);
  return next(specifier, context);
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuse)}`)});`;

/** Runs `code` as an ES module in a fresh Node.js, from the package folder, with `refuse` installed. */
function runScript(code: string) {
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '--eval', code],
    { cwd: packageDir, encoding: 'utf8', timeout: 60_000 },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('@headway/runtime/testing', () => {
  it('runs an agent with ScriptedProvider without loading vitest, esbuild or fast-check', () => {
    const r = runScript(`
      import { AgentRuntime } from '@headway/runtime';
      import { ScriptedProvider, drainRunStream } from '@headway/runtime/testing';
      const provider = new ScriptedProvider([{ content: 'Done.' }]);
      const result = await new AgentRuntime({ provider: 'scripted' }, { provider }).run('Say done');
      console.log(result.status, result.text);
      console.log(typeof drainRunStream);
    `);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('completed Done.\nfunction\n');
    expect(r.status).toBe(0);
  });

  it('the hook does refuse vitest: the conformance entry, which needs it, fails to load', () => {
    const r = runScript(`import '@headway/runtime/testing/conformance';`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('refused: vitest');
  });
});
