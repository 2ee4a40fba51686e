// A TypeDoc plugin for typedoc.config.mjs: each entry point's module is named by the specifier
// users import it with (`@headway/runtime/testing`), read from the config's entry map, not by its
// file path, so each import path's page is named as the READMEs write it.
import { Converter, ReflectionKind } from 'typedoc';

/**
 * Renames each module to the specifier whose source file it was converted from.
 * @param {import('typedoc').Application} app
 */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const names = globalThis.__headwayDocsModuleNames ?? {};
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const file = module.sources?.[0]?.fullFileName;
      const name = file === undefined ? undefined : names[file];
      if (name === undefined)
        app.logger.error(`typedoc-module-names: no import specifier for module ${module.name} (${file ?? 'no source'})`);
      else module.name = name;
    }
  });
}
