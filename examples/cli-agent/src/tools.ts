// Real file tools for the demo agent, confined to one root folder.
import { readdir, readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { defineTool } from '@headway/runtime';
import { z } from 'zod';

const SKIP = new Set(['node_modules', '.git', 'dist', '.turbo', '.vitest', '.headway']);
const MAX_FILE_CHARS = 20_000;
const MAX_GREP_FILES = 2_000;
const MAX_GREP_MATCHES = 200;

/** Resolves `path` inside `root`, refusing anything that escapes it. */
function inside(root: string, path: string): string {
  const full = resolve(root, path);
  if (full !== root && !full.startsWith(root + sep)) throw new Error(`${path} is outside the folder this agent may read`);
  return full;
}

async function* walk(root: string, dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const full = resolve(dir, entry.name);
    if (entry.isDirectory()) yield* walk(root, full);
    else if (entry.isFile()) yield full;
  }
}

/** Converts a simple glob (`*`, `**`, `?`) over relative paths to a RegExp. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === '*' && glob.charAt(i + 1) === '*') {
      out += '.*';
      i += glob.charAt(i + 2) === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The three tools the demo agent works with, reading real files under `root`. */
export function fileTools(rootDir: string) {
  const root = resolve(rootDir);
  const listDir = defineTool({
    name: 'list_dir',
    description: 'List the entries of a folder (relative to the project root). Folders end with "/".',
    parameters: z.object({ path: z.string().default('.') }),
    safe: true,
    async execute({ path }) {
      const dir = inside(root, path);
      const entries = await readdir(dir, { withFileTypes: true });
      return entries
        .filter((e) => !SKIP.has(e.name))
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
        .sort()
        .join('\n');
    },
  });
  const readFileTool = defineTool({
    name: 'read_file',
    description: `Read a UTF-8 text file (relative to the project root); long files are cut at ${MAX_FILE_CHARS} characters.`,
    parameters: z.object({ path: z.string().min(1) }),
    safe: true,
    async execute({ path }) {
      const file = inside(root, path);
      const info = await stat(file);
      if (!info.isFile()) throw new Error(`${path} is not a file`);
      const text = await readFile(file, 'utf8');
      return text.length > MAX_FILE_CHARS ? `${text.slice(0, MAX_FILE_CHARS)}\n[… cut at ${MAX_FILE_CHARS} characters]` : text;
    },
  });
  const grep = defineTool({
    name: 'grep',
    description: 'Search files for a regular expression. Returns "path:line: text" for each matching line.',
    parameters: z.object({
      pattern: z.string().min(1),
      glob: z.string().default('**/*'),
      ignoreCase: z.boolean().default(false),
    }),
    safe: true,
    async execute({ pattern, glob, ignoreCase }, ctx) {
      const re = new RegExp(pattern, ignoreCase ? 'i' : '');
      const wanted = globToRegExp(glob);
      const matches: string[] = [];
      let files = 0;
      for await (const file of walk(root, root)) {
        if (ctx.signal.aborted) throw new Error('cancelled');
        const rel = relative(root, file).split(sep).join('/');
        if (!wanted.test(rel)) continue;
        if (++files > MAX_GREP_FILES) break;
        const text = await readFile(file, 'utf8').catch(() => '');
        if (text.includes('\u0000')) continue; // binary
        const lines = text.split('\n');
        for (let i = 0; i < lines.length && matches.length < MAX_GREP_MATCHES; i++) {
          const line = lines[i] ?? '';
          if (re.test(line)) matches.push(`${rel}:${i + 1}: ${line.trim()}`);
        }
        if (matches.length >= MAX_GREP_MATCHES) break;
      }
      return matches.length === 0 ? 'no matches' : matches.join('\n');
    },
  });
  return [listDir, readFileTool, grep];
}
