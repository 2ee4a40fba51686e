import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { describeIssues, toValidationIssues } from '@headway/protocol';
import { errorMessage } from '@headway/protocol/internal';
import { safeParseStoredRecord, type AuditEvent } from './audit-event.js';
import { AuditLogError } from './audit-log-error.js';

/** A line of a JSONL audit log that was skipped, and why. */
export interface AuditLogProblem {
  file: string;
  /** 1-based line number. */
  line: number;
  /**
   * `torn`: a record cut off mid-write (a crash), expected at most once per crash;
   * `invalid`: not JSON, or JSON that is not an audit event.
   */
  kind: 'torn' | 'invalid';
  /** `file:line: what is wrong`. */
  message: string;
}

/** What {@link readAuditLog} found. */
export interface AuditLogReadResult {
  /** Every valid event, in file order. */
  events: AuditEvent[];
  /** The 1-based line number of each of `events` (same order), e.g. for `verifyAuditChain` locations. */
  lineNumbers: number[];
  /** Every skipped line, in file order. */
  problems: AuditLogProblem[];
}

/** Options of {@link readAuditLog}. */
export interface ReadAuditLogOptions {
  /** Throw on the first `invalid` line instead of skipping it (torn lines are always skipped). */
  strict?: boolean;
  /**
   * Longest line read, in characters (default {@link DEFAULT_MAX_AUDIT_LINE_LENGTH}, 8 MiB). A
   * longer line is `invalid`: it is skipped without being held in memory or parsed.
   */
  maxLineLength?: number;
}

/** Default `maxLineLength` of {@link readAuditLog}: 8 MiB characters. */
export const DEFAULT_MAX_AUDIT_LINE_LENGTH: number = 8 * 1024 * 1024;

/**
 * True when JSON.parse failed because the text ended early (the parser's error position is
 * the end of the input): the signature of a record cut off mid-write.
 */
function endedEarly(text: string, error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  if (/unexpected end of json input/i.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at?.[1] !== undefined && Number(at[1]) >= text.trimEnd().length;
}

/**
 * Reads a JSONL audit log (as written by `JsonlAuditBus`), validating every line.
 *
 * A last line without its newline that does not parse is a torn write from a crash: it is
 * skipped and reported as `torn`, never an error. So is a cut-off record that a reopened
 * bus sealed. Any other bad line is skipped and reported as `invalid` with `file:line`,
 * or, with `strict`, thrown.
 *
 * @throws {AuditLogError} `AUDIT_INVALID_LINE` (only with `strict`).
 * @throws the file system's error when the file cannot be read.
 * @example
 * ```ts
 * const { events, problems } = await readAuditLog('audit.jsonl');
 * for (const p of problems) console.warn(p.message);
 * ```
 */
export async function readAuditLog(file: string, options: ReadAuditLogOptions = {}): Promise<AuditLogReadResult> {
  const events: AuditEvent[] = [];
  const lineNumbers: number[] = [];
  const problems: AuditLogProblem[] = [];
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_AUDIT_LINE_LENGTH;
  let lineNo = 0;

  const tooLong = (): void => {
    lineNo += 1;
    invalid(`${file}:${lineNo}: longer than ${maxLineLength} characters (maxLineLength), skipped`, [
      { path: '', message: `longer than ${maxLineLength} characters` },
    ]);
  };

  const take = (text: string, complete: boolean): void => {
    if (text.length > maxLineLength) {
      tooLong();
      return;
    }
    lineNo += 1;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (!complete || endedEarly(text, error)) {
        problems.push({ file, line: lineNo, kind: 'torn', message: `${file}:${lineNo}: torn record (cut off mid-write), skipped` });
        return;
      }
      const reason = errorMessage(error);
      invalid(`${file}:${lineNo}: not JSON (${reason})`, []);
      return;
    }
    const result = safeParseStoredRecord(value);
    if (result.success) {
      events.push(result.data);
      lineNumbers.push(lineNo);
      return;
    }
    const issues = toValidationIssues(result.error);
    invalid(`${file}:${lineNo}: not an audit event: ${describeIssues(issues)}`, issues);
  };

  const invalid = (message: string, issues: AuditLogError['issues']): void => {
    if (options.strict === true) throw new AuditLogError('AUDIT_INVALID_LINE', message, { location: `${file}:${lineNo}`, issues });
    problems.push({ file, line: lineNo, kind: 'invalid', message });
  };

  const decoder = new StringDecoder('utf8');
  let rest = '';
  /** The current line passed `maxLineLength`: its text is dropped up to its newline. */
  let skipping = false;
  for await (const chunk of createReadStream(file)) {
    const text = decoder.write(chunk as Buffer);
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      if (skipping) {
        skipping = false;
        tooLong();
      } else {
        take(rest + text.slice(start, nl), true);
      }
      rest = '';
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (!skipping) {
      rest += text.slice(start);
      if (rest.length > maxLineLength) {
        skipping = true;
        rest = '';
      }
    }
  }
  rest += decoder.end();
  if (skipping) tooLong();
  else if (rest !== '') take(rest, false);
  return { events, lineNumbers, problems };
}
