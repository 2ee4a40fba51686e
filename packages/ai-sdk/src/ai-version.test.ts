import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HeadwayError } from '@headway/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { assertSupportedAi, installedAiVersion, SUPPORTED_AI_RANGE } from './ai-version.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project whose node_modules holds an `ai` manifest of `version`; returns a file URL inside it. */
function projectWithAi(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'headway-ai-version-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'node_modules', 'ai'), { recursive: true });
  writeFileSync(
    join(dir, 'node_modules', 'ai', 'package.json'),
    JSON.stringify({ name: 'ai', version, exports: { './package.json': './package.json', '.': './index.js' } }),
  );
  return pathToFileURL(join(dir, 'app.js')).href;
}

describe('the ai peer dependency', () => {
  it('declares the range it checks at run time', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      peerDependencies: Record<string, string>;
    };
    expect(manifest.peerDependencies.ai).toBe(SUPPORTED_AI_RANGE);
  });

  it('accepts every ai 6 release and the one installed here', () => {
    for (const version of ['6.0.0', '6.0.326', '6.1.0-beta.2'])
      expect(() => {
        assertSupportedAi(version);
      }).not.toThrow();
    const here = installedAiVersion(import.meta.url);
    expect(here).toMatch(/^6\./);
  });

  it('rejects another major with AI_SDK_UNSUPPORTED_VERSION naming the supported range', () => {
    for (const version of ['7.0.173', '5.0.9', '60.0.0', 'latest', '']) {
      let thrown: unknown;
      try {
        assertSupportedAi(version);
      } catch (error) {
        thrown = error;
      }
      expect(HeadwayError.isInstance(thrown, 'AI_SDK_UNSUPPORTED_VERSION')).toBe(true);
      expect((thrown as Error).message).toBe(
        `@headway/ai-sdk supports ai ^6.0.0, but ai ${JSON.stringify(version)} is installed: install a supported release (npm install ai@^6)`,
      );
    }
  });

  it('reads the version a project really has installed, and rejects ai 7 there', () => {
    const from = projectWithAi('7.0.173');
    expect(installedAiVersion(from)).toBe('7.0.173');
    expect(() => {
      assertSupportedAi(installedAiVersion(from) ?? '');
    }).toThrow('@headway/ai-sdk supports ai ^6.0.0, but ai "7.0.173" is installed');
    expect(installedAiVersion(projectWithAi('6.0.1'))).toBe('6.0.1');
  });

  it('gives undefined where the ai manifest is garbage', () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-ai-version-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'node_modules', 'ai'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'ai', 'package.json'), '{"name":"ai","version":7}');
    expect(installedAiVersion(pathToFileURL(join(dir, 'app.js')).href)).toBeUndefined();
  });
});
