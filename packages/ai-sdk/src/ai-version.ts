import type * as NodeModule from 'node:module';
import { AiSdkError } from './ai-sdk-error.js';

/**
 * The `ai` releases this package is tested with: its peer dependency range (kept equal to
 * `peerDependencies.ai` in package.json, which a test checks).
 */
export const SUPPORTED_AI_RANGE = '^6.0.0';
const SUPPORTED_MAJOR = 6;

/**
 * Throws `AI_SDK_UNSUPPORTED_VERSION`, naming {@link SUPPORTED_AI_RANGE}, when `version` is not
 * an `ai` release of a supported major. Another major changes the settings and step shapes the
 * bridge reads (tool results arrive as `undefined`, `prepareStep` fields are dropped), so it
 * fails loudly at the start instead of reporting wrong progress.
 */
export function assertSupportedAi(version: string): void {
  const major = /^v?(\d+)\.\d+\.\d+/.exec(version)?.[1];
  if (major !== undefined && Number(major) === SUPPORTED_MAJOR) return;
  throw new AiSdkError(
    'AI_SDK_UNSUPPORTED_VERSION',
    `@headway/ai-sdk supports ai ${SUPPORTED_AI_RANGE}, but ai ${JSON.stringify(version.slice(0, 40))} is installed: install a supported release (npm install ai@^6)`,
  );
}

/**
 * The version of the `ai` package that `from` (a file URL or path) resolves, or undefined
 * where it cannot be read: a runtime without Node's module loader, a bundle, no `ai` installed.
 */
export function installedAiVersion(from: string): string | undefined {
  try {
    // getBuiltinModule keeps this file free of a static `node:` import, so bundles for other
    // runtimes still load it; there the check is skipped.
    const { process } = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const nodeModule = process?.getBuiltinModule?.('node:module') as typeof NodeModule | undefined;
    if (nodeModule === undefined) return undefined;
    const manifest: unknown = nodeModule.createRequire(from)('ai/package.json');
    if (typeof manifest !== 'object' || manifest === null || !('version' in manifest)) return undefined;
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

let checked = false;

/** Checks the installed `ai` once per process (see {@link assertSupportedAi}). */
export function checkInstalledAi(): void {
  if (checked) return;
  const version = installedAiVersion(import.meta.url);
  if (version !== undefined) assertSupportedAi(version);
  checked = true;
}
