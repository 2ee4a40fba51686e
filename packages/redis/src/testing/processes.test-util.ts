import { fileURLToPath } from 'node:url';
import { startLineProcess, type LineProcess } from '@headway/test-utils';

/** A fixture process speaking JSON lines on stdout. */
export type Fixture = LineProcess<Record<string, unknown>>;

function parseJsonLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Starts `file` (a .fixture.ts beside this one) under tsx with `args` as JSON. */
export function startFixture(file: string, args: object): Fixture {
  const path = fileURLToPath(new URL(file, import.meta.url));
  return startLineProcess(process.execPath, ['--import', 'tsx', path, JSON.stringify(args)], { name: file, parse: parseJsonLine });
}
