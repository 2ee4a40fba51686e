import { redactString } from '@headway/protocol';
import { cutText, oneLine } from '@headway/protocol/internal';

/** Longest subject a stall event carries. */
const MAX_SUBJECT = 80;
/** Tools whose one argument is a shell command: the command alone says what repeated. */
const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'bash',
  'shell',
  'sh',
  'exec',
  'run',
  'run_command',
  'run_shell_command',
  'terminal',
  'execute_command',
]);
/** Argument keys that say best what a call does, in order of preference. */
const TELLING_KEYS: readonly string[] = [
  'command',
  'cmd',
  'path',
  'file_path',
  'filePath',
  'file',
  'query',
  'pattern',
  'url',
  'id',
  'name',
];

function firstTelling(args: unknown): string | undefined {
  try {
    if (typeof args === 'string') return args;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    const record = args as Record<string, unknown>;
    for (const key of TELLING_KEYS) {
      const value = Object.hasOwn(record, key) ? record[key] : undefined;
      if (typeof value === 'string' && value.trim() !== '') return value;
      if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return value.join(' ');
    }
  } catch {
    // Arguments that cannot be read say nothing: the tool's name alone is the subject.
  }
  return undefined;
}

/**
 * What a repeated call was, for people: `ls src/work` for a shell tool, `read_file src/a.ts` for a
 * tool with a path, the name alone otherwise. Redacted, on one line, at most 80 characters.
 */
export function stallSubject(name: string, args: unknown): string {
  const telling = firstTelling(args);
  const head =
    telling === undefined ? name : SHELL_TOOLS.has(name.toLowerCase()) ? telling.slice(0, 1000) : `${name} ${telling.slice(0, 1000)}`;
  return cutText(redactString(oneLine(head)), MAX_SUBJECT);
}

/** A repeated text's first words, quoted: `"Let me check the file again…"`. */
export function textSubject(text: string): string {
  return `"${cutText(redactString(oneLine(text.slice(0, 1000))), MAX_SUBJECT - 2)}"`;
}
