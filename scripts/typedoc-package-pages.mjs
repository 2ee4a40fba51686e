// A TypeDoc plugin for typedoc.config.mjs: one page per package.
// - Each entry point's module is named by the specifier users import it with
//   (`@headway/runtime/testing`), read from the config's entry map, not by its file path.
// - The modules of a package's other entry points are merged into the package's module, and on
//   the package's page its exports are filed under the import path they come from.
// - The `headway-package` router gives each package's module a page, and the default theme's
//   module page is rendered with every member on it in full (anchors, not pages of their own),
//   where TypeDoc's own lists only one-line summaries that link to members' own pages.
// - Each published package's README must name its page (`docs/api/modules/….html`), and no README
//   may name a page the reference does not have.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import {
  Converter,
  DefaultTheme,
  DefaultThemeRenderContext,
  JSX,
  KindRouter,
  PageKind,
  ReflectionCategory,
  ReflectionKind,
  RendererEvent,
} from 'typedoc';

/** Every `.html` file under `dir`, relative to it (`/` separated). */
function htmlFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return htmlFiles(dir, path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

/**
 * What is wrong with a rendered reference in `outputDirectory` for the workspace at `root`: a link
 * between its pages to a page or anchor that is not there, a README under `packages/` naming a
 * `docs/api/….html` page that does not exist, a published package's README that does not name its
 * own page. Empty when all is well.
 */
export function referenceProblems(outputDirectory, root) {
  const problems = [];
  const pages = htmlFiles(outputDirectory);
  const ids = new Map(
    pages.map((page) => [
      page,
      new Set([...readFileSync(join(outputDirectory, page), 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1])),
    ]),
  );
  for (const page of pages) {
    const html = readFileSync(join(outputDirectory, page), 'utf8');
    for (const [, href] of html.matchAll(/ href="([^"]+)"/g)) {
      if (/^[a-z]+:/.test(href) || href.includes('assets/')) continue;
      const [path, anchor] = href.split('#');
      const target = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path));
      if (!ids.has(target)) problems.push(`${page} links to ${href}: no such page`);
      else if (anchor !== undefined && anchor !== '' && !ids.get(target).has(anchor))
        problems.push(`${page} links to ${href}: no such anchor`);
    }
  }
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifestFile = join(root, 'packages', dir, 'package.json');
    const readmeFile = join(root, 'packages', dir, 'README.md');
    if (!existsSync(manifestFile) || !existsSync(readmeFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const named = [...readFileSync(readmeFile, 'utf8').matchAll(/docs\/api\/([\w./-]+\.html)/g)].map((m) => m[1]);
    for (const page of named)
      if (!ids.has(page)) problems.push(`packages/${dir}/README.md names docs/api/${page}, which is not a page of the reference`);
    if (manifest.private === true) continue;
    const own = `modules/${String(manifest.name).replace(/[^\w-]/g, '_')}.html`;
    if (!named.includes(own)) problems.push(`packages/${dir}/README.md does not name its page, docs/api/${own}`);
  }
  return [...new Set(problems)];
}

/** The package an import specifier belongs to: `@headway/runtime/testing` → `@headway/runtime`. */
function packageOf(specifier) {
  return specifier.split('/').slice(0, 2).join('/');
}

/** Pages for the project and each package's module only; everything else is an anchor on its module's page. */
class PackageRouter extends KindRouter {
  getPageKind(target) {
    return typeof target.kindOf === 'function' && target.kindOf(ReflectionKind.Module) ? PageKind.Reflection : undefined;
  }
}

/** A package's page: its comment, the index of its exports, then each export in full. */
class PackageThemeContext extends DefaultThemeRenderContext {
  constructor(...args) {
    super(...args);
    const summaries = this.moduleReflection;
    this.moduleReflection = (mod) => {
      if (!mod.isDeclaration() || mod.kind !== ReflectionKind.Module) return summaries(mod);
      return JSX.createElement(
        JSX.Fragment,
        null,
        mod.hasComment(this.options.getValue('notRenderedTags')) &&
          JSX.createElement('section', { class: 'tsd-panel tsd-comment' }, this.commentSummary(mod), this.commentTags(mod)),
        this.index(mod),
        this.members(mod),
      );
    };
  }
}

/** Specifiers of the entry points merged into each package module, main entry first. */
const entriesOf = new Map();
/** The import path each export of a merged package came from. */
const entryOf = new Map();

/**
 * @param {import('typedoc').Application} app
 */
export function load(app) {
  app.renderer.defineRouter('headway-package', PackageRouter);
  // The theme is made before rendering begins; its pages are then rendered with the package context.
  app.renderer.on(RendererEvent.BEGIN, () => {
    if (app.renderer.theme instanceof DefaultTheme) app.renderer.theme.ContextClass = PackageThemeContext;
    else app.logger.error('typedoc-package-pages: the theme is not the default theme, so members have no place on package pages');
  });

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const names = globalThis.__headwayDocsModuleNames ?? {};
    const project = context.project;
    const modules = project.getReflectionsByKind(ReflectionKind.Module);
    for (const module of modules) {
      const file = module.sources?.[0]?.fullFileName;
      const name = file === undefined ? undefined : names[file];
      if (name === undefined)
        app.logger.error(`typedoc-package-pages: no import specifier for module ${module.name} (${file ?? 'no source'})`);
      else module.name = name;
    }
    const mains = new Map(modules.filter((m) => packageOf(m.name) === m.name).map((m) => [m.name, m]));
    for (const module of modules.toSorted((a, b) => a.name.localeCompare(b.name))) {
      const main = mains.get(packageOf(module.name));
      if (main === undefined) {
        app.logger.error(`typedoc-package-pages: ${module.name} has no main entry point to merge into`);
        continue;
      }
      const entries = entriesOf.get(main) ?? [];
      entriesOf.set(main, [...entries, module.name]);
      for (const child of module.children ?? []) entryOf.set(child, module.name);
      if (module === main) continue;
      project.mergeReflections(module, main);
    }
    // An export two entry points share is listed once, under the first entry that has it.
    for (const main of mains.values()) {
      for (const child of [...(main.children ?? [])]) {
        if (!child.kindOf(ReflectionKind.Reference)) continue;
        const target = child.tryGetTargetReflectionDeep();
        if (target?.parent === main) project.removeReflection(child);
      }
    }
  });

  // After TypeDoc's own categories (-200): a package of several entry points lists its exports by import path.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    () => {
      for (const [main, entries] of entriesOf) {
        if (entries.length < 2) continue;
        main.categories = entries.flatMap((entry) => {
          const category = new ReflectionCategory(`import from '${entry}'`);
          category.children = (main.children ?? []).filter((child) => entryOf.get(child) === entry);
          return category.children.length === 0 ? [] : [category];
        });
      }
    },
    -300,
  );

  app.renderer.on(RendererEvent.END, (event) => {
    for (const problem of referenceProblems(event.outputDirectory, join(import.meta.dirname, '..')))
      app.logger.error(`typedoc-package-pages: ${problem}`);
  });
}
