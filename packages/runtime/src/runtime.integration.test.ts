// What a user gets from `npm install @headway/runtime`: the packed tarballs (runtime and its
// @headway dependencies) installed into an empty npm project. Slow (packs four packages and runs
// npm), hence one file with a generous timeout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'headway-pack-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${String(r.status)}):\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}\n${r.stderr}`;
}

/** Installed packages: every `node_modules/<name>` and `node_modules/@scope/<name>`, nested ones included. */
function installedPackages(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => join(entry, n)) : [entry];
    for (const name of dirs) {
      found.push(name);
      found.push(...installedPackages(join(modules, name, 'node_modules')));
    }
  }
  return found;
}

/** Files that mean native code: addon sources or compiled addons. */
function nativeFiles(dir: string): string[] {
  const hits: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) hits.push(...nativeFiles(path));
    else if (entry === 'binding.gyp' || entry.endsWith('.node')) hits.push(path);
  }
  return hits;
}

describe('npm install @headway/runtime from its packed tarball', () => {
  it('compiles nothing native and adds fewer than 10 packages', () => {
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    for (const name of ['protocol', 'estimator', 'report', 'runtime'])
      run('pnpm', ['pack', '--pack-destination', tarballs], join(packages, name));
    const files = readdirSync(tarballs).map((f) => join(tarballs, f));
    expect(files).toHaveLength(4);
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
    const log = run('npm', ['install', '--foreground-scripts', ...files], app);
    expect(log).not.toMatch(/gyp|prebuild|node-pre-gyp/i);
    const modules = join(app, 'node_modules');
    const installed = installedPackages(modules).sort();
    expect(installed).toContain('@headway/runtime');
    expect(installed).not.toContain('openai');
    expect(installed).not.toContain('better-sqlite3');
    expect(installed.length, installed.join(', ')).toBeLessThan(10);
    console.log(`npm install @headway/runtime: ${String(installed.length)} packages (${installed.join(', ')})`);
    expect(nativeFiles(modules)).toEqual([]);
    // Its published types name no vendor SDK and no native module either.
    const dist = join(modules, '@headway', 'runtime', 'dist');
    const declarations = readdirSync(dist).filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(0);
    for (const file of declarations) expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(/from ['"](?:openai|better-sqlite3)/);
    // And it runs: a scripted agent answers from the installed package.
    writeFileSync(
      join(app, 'main.js'),
      "import { AgentRuntime } from '@headway/runtime';\n" +
        "import { ScriptedProvider } from '@headway/runtime/testing';\n" +
        "const r = await new AgentRuntime({ provider: 'scripted' }, { provider: new ScriptedProvider([{ content: 'hi' }]) }).run('say hi');\n" +
        'console.log(r.status, r.text);\n',
    );
    expect(run(process.execPath, ['main.js'], app).trim()).toBe('completed hi');
  }, 300_000);
});
