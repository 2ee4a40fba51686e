#!/usr/bin/env node
// Scaffolds a new published package, packages/<name>, in the shape every headway package has
// (see CONTRIBUTING.md): package.json, README, tsconfig, tsdown and vitest configs, an index
// barrel, one concept with its test and its error class, and a changeset; adds it to the root
// README's table. The root vitest config and knip find packages/* on their own.
//
// Usage: pnpm new-package <name> ["one line: what it is for"]
//   then: pnpm install && pnpm -F @headway/<name> build typecheck lint test check
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** `reporter-xml` → `ReporterXml`. */
function pascal(name) {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The files of a new package, by path relative to the repository root. */
export function packageFiles(name, description) {
  const P = pascal(name);
  const CODE = name.toUpperCase().replaceAll('-', '_');
  const dir = `packages/${name}`;
  const pkg = {
    name: `@headway/${name}`,
    version: '0.0.0',
    description,
    license: 'MIT',
    repository: { type: 'git', directory: dir },
    type: 'module',
    sideEffects: false,
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist', 'src', '!src/**/*.test.ts', '!src/**/*.test-d.ts', '!src/**/*.test-util.ts'],
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsdown',
      typecheck: 'tsc --noEmit',
      lint: 'eslint .',
      test: 'vitest run --reporter=default --reporter=json --outputFile.json=.vitest/results.json',
      check: 'publint --strict && attw --pack . --profile esm-only',
    },
    dependencies: { '@headway/protocol': 'workspace:^' },
    keywords: ['llm', 'agent', 'progress'],
  };
  return {
    [`${dir}/package.json`]: `${JSON.stringify(pkg, null, 2)}\n`,
    [`${dir}/README.md`]: `# @headway/${name}

${description}

## Install

\`\`\`sh
npm install @headway/${name} @headway/protocol
\`\`\`

## Usage

\`\`\`ts
import { createProgressHub } from '@headway/protocol';
import { create${P} } from '@headway/${name}';

const counter = create${P}();
const hub = createProgressHub({ runId: 'run-1' });
hub.add(counter.handle);
hub.emit({ type: 'run.started', agentName: 'demo' });
console.log(counter.count('run.started')); // 1
\`\`\`

## Dependencies

- \`@headway/protocol\`: the progress events this package reads, and \`HeadwayError\`.
`,
    [`${dir}/tsconfig.json`]: `{
  "extends": "../../tsconfig.base.json",
  "include": ["src", "*.ts"]
}
`,
    [`${dir}/tsdown.config.ts`]: `import { defineConfig, type UserConfig } from 'tsdown';

const config: UserConfig = defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  dts: true,
  sourcemap: true,
  fixedExtension: false,
  clean: true,
});

export default config;
`,
    [`${dir}/vitest.config.ts`]: `import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

// Type-level tests (*.test-d.ts) are checked by the package's \`typecheck\` task (tsc), once.
const config: UserWorkspaceConfig = defineProject({
  test: {
    name: '${name}',
    include: ['src/**/*.test.ts'],
    // A guard against hangs on a loaded two-core machine, not a timing assertion.
    testTimeout: 30_000,
  },
});

export default config;
`,
    [`${dir}/src/index.ts`]: `export { create${P} } from './${name}.js';
export type { ${P}, ${P}Options } from './${name}.js';
export { ${P}Error } from './${name}-error.js';
export type { ${P}ErrorCode } from './${name}-error.js';
`,
    [`${dir}/src/${name}-error.ts`]: `import { HeadwayError } from '@headway/protocol';

/** Codes a {@link ${P}Error} can carry. */
export type ${P}ErrorCode =
  /** An option given to \`create${P}\` is invalid; the message names it. */
  '${CODE}_INVALID_OPTIONS';

/** Thrown by \`@headway/${name}\`; the message says what is wrong and where. */
export class ${P}Error extends HeadwayError<${P}ErrorCode> {
  override readonly name: string = '${P}Error';
}
`,
    [`${dir}/src/${name}.ts`]: `import type { ProgressEvent, ProgressEventType } from '@headway/protocol';
import { ${P}Error } from './${name}-error.js';

/** Options of {@link create${P}}. */
export interface ${P}Options {
  /** Event types counted (default every type). */
  types?: readonly ProgressEventType[];
}

/** Counts the events of a run by type. */
export interface ${P} {
  /** A progress sink: add it to a hub (\`hub.add(counter.handle)\`). */
  readonly handle: (event: ProgressEvent) => void;
  /** How many events of \`type\` were seen (all of them without \`type\`). */
  count(type?: ProgressEventType): number;
}

/**
 * A counter of progress events by type.
 *
 * @example
 * \`\`\`ts
 * const counter = create${P}();
 * hub.add(counter.handle);
 * \`\`\`
 */
export function create${P}(options: ${P}Options = {}): ${P} {
  if (options.types !== undefined && !Array.isArray(options.types)) {
    throw new ${P}Error('${CODE}_INVALID_OPTIONS', 'create${P}: options.types must be an array of event types');
  }
  const counted = options.types === undefined ? undefined : new Set(options.types);
  const counts = new Map<ProgressEventType, number>();
  return {
    handle: (event) => {
      if (counted !== undefined && !counted.has(event.type)) return;
      counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
    },
    count: (type) => (type === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(type) ?? 0)),
  };
}
`,
    [`${dir}/src/${name}.test.ts`]: `import { HeadwayError, createProgressHub } from '@headway/protocol';
import { describe, expect, it } from 'vitest';
import { create${P} } from './${name}.js';

describe('create${P}', () => {
  it('counts the events a hub delivers, by type', () => {
    const counter = create${P}();
    const hub = createProgressHub({ runId: 'r' });
    hub.add(counter.handle);
    hub.emit({ type: 'run.started', agentName: 'a' });
    hub.emit({ type: 'text.delta', text: 'x' });
    hub.emit({ type: 'text.delta', text: 'y' });
    expect([counter.count('text.delta'), counter.count('run.started'), counter.count()]).toEqual([2, 1, 3]);
  });

  it('rejects options that are not what they should be, with a coded error', () => {
    let error: unknown;
    try {
      create${P}({ types: 'text.delta' as never });
    } catch (e) {
      error = e;
    }
    expect(HeadwayError.isInstance(error, '${CODE}_INVALID_OPTIONS')).toBe(true);
  });
});
`,
    [`.changeset/${name}-initial.md`]: `---
"@headway/${name}": minor
---

First release: ${description}
`,
  };
}

/** Writes the package under `root` and adds its row to the root README's table; returns the paths written. */
export function scaffoldPackage({ root, name, description }) {
  if (!NAME.test(name)) throw new Error(`"${name}" is not a package name: lower-case words joined by "-", e.g. reporter-xml`);
  if (existsSync(join(root, 'packages', name))) throw new Error(`packages/${name} exists already`);
  const files = packageFiles(name, description);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const readmePath = join(root, 'README.md');
  if (existsSync(readmePath)) {
    const lines = readFileSync(readmePath, 'utf8').split('\n');
    const last = lines.findLastIndex((line) => line.startsWith('| [`@headway/'));
    if (last !== -1) {
      lines.splice(last + 1, 0, `| [\`@headway/${name}\`](packages/${name}) | ${description} | new |`);
      writeFileSync(readmePath, lines.join('\n'));
    }
  }
  return Object.keys(files);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, description = 'TODO: one line saying what this package is for.'] = process.argv.slice(2);
  if (name === undefined) {
    console.error('usage: pnpm new-package <name> ["one line: what it is for"]');
    process.exit(2);
  }
  const root = new URL('..', import.meta.url).pathname;
  try {
    for (const path of scaffoldPackage({ root, name, description })) console.log(`wrote ${path}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  console.log(`\nNext: pnpm install && pnpm -F @headway/${name} build && pnpm -F @headway/${name} test`);
  console.log('Then replace the example counter with your package, keeping the shape (see CONTRIBUTING.md).');
}
