// The API reference (`pnpm docs`): TypeDoc over every published package's public entry points,
// read from each package.json's `exports`, into docs/api/ (git-ignored), one page per package
// (scripts/typedoc-package-pages.mjs: a package's entry points merged into one module, each
// export filed under its import path, every member rendered on the package's page). One
// TypeScript program covers all packages, with each `@headway/…` import mapped to its source, so
// a type from another package links to that package's page. Warnings fail the run, and so does a
// README that does not name its package's page (the test command builds it through turbo's
// `//#docs:api` task).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OptionDefaults } from 'typedoc';

const root = import.meta.dirname;

/** The source file tsdown builds `./dist/<name>.d.ts` from. */
function sourceOf(dir, types) {
  const name = types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '');
  const candidates = [`src/${name}.ts`, `src/${name}/index.ts`, `src/${name.replace('-', '/')}.ts`];
  const found = candidates.find((c) => existsSync(join(dir, c)));
  if (found === undefined) throw new Error(`typedoc.config.mjs: no source for ${types} in ${dir} (tried ${candidates.join(', ')})`);
  return join(dir, found);
}

/** `{ specifier: source file }` for every TypeScript entry of every published package. */
function publicEntries() {
  const entries = {};
  for (const name of readdirSync(join(root, 'packages')).sort()) {
    const dir = join(root, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== 'object' || typeof target.types !== 'string') continue;
      entries[subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`] = sourceOf(dir, target.types);
    }
  }
  return entries;
}

const entries = publicEntries();
// Read by scripts/typedoc-package-pages.mjs, which names each module by its specifier.
globalThis.__headwayDocsModuleNames = Object.fromEntries(Object.entries(entries).map(([specifier, file]) => [file, specifier]));

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  name: 'headway API reference',
  entryPoints: Object.values(entries),
  entryPointStrategy: 'resolve',
  tsconfig: join(root, 'tsconfig.docs.json'),
  compilerOptions: {
    noEmit: true,
    paths: Object.fromEntries(Object.entries(entries).map(([specifier, file]) => [specifier, [file]])),
  },
  out: join(root, 'docs', 'api'),
  plugin: [join(root, 'scripts', 'typedoc-package-pages.mjs')],
  // Defined by that plugin: a page for each package, its members on it in full.
  router: 'headway-package',
  readme: 'none',
  // `@alias` marks a second name kept for an export (JSDoc's tag, not TSDoc's).
  blockTags: [...OptionDefaults.blockTags, '@alias'],
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  externalPattern: ['**/node_modules/**'],
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: false, unusedMergeModuleWith: true },
  githubPages: false,
  hideGenerator: true,
  logLevel: 'Warn',
};

export default config;
