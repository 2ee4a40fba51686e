import { open } from 'node:fs/promises';
import {
  readAuditLog,
  readSqliteAuditRecords,
  verifyAuditChain,
  type AuditChainResult,
  type LocatedAuditEvent,
} from '@headway/reporter-audit';
import { errorMessage } from '@headway/protocol/internal';
import { parseCommand, showHelp } from '../args.js';
import { terminalJson, terminalLines, terminalText } from '../terminal-text.js';
import { CliError, EXIT } from '../cli-error.js';
import type { CliIo } from '../io/cli-io.js';
import { openStores } from '../store-url.js';

const AUDIT_USAGE = 'headway audit verify PATH|postgres://… [--json]';

const AUDIT_HELP = `${AUDIT_USAGE}

Checks the hash chain of an audit log written by @headway/reporter-audit (a JSONL file or a SQLite
database; found from the file's first bytes) or by @headway/postgres (a postgres:// URL; needs
@headway/postgres installed): every record carries the SHA-256 of the one before it in its
session. Names the first record that was edited, removed, reordered or inserted, or written
without the chain, with its file:line (JSONL), file#row (SQLite) or host:port/db#id (Postgres).

It cannot see records cut off the end of a session, or a log rewritten with every hash
recomputed: keep the last hash elsewhere when that matters.

Options:
  --json           {"ok", "records", "sessions", "break"?} on stdout

Exit codes: 0 the chain is whole, 1 it is broken (or the file is missing, or not an audit log),
2 bad usage.

Examples:
  headway audit verify .headway/audit.jsonl
  headway audit verify .headway/audit.db --json | jq .break
  headway audit verify postgres://localhost/agents`;

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** A line of a JSONL log that is not a record: `allowed` only for a record torn by a crash. */
interface AuditProblem {
  message: string;
  allowed: boolean;
}

/** The records of an audit log, in storage order, with where each is. */
async function readAuditRecords(path: string): Promise<{ records: LocatedAuditEvent[]; problems: AuditProblem[] }> {
  if (/^postgres(?:ql)?:\/\//.test(path)) {
    const stores = await openStores(path);
    try {
      if (stores.auditRecords === undefined) {
        throw new CliError('CLI_STORE_MISSING', 'the installed @headway/postgres cannot read audit records; update it');
      }
      return { records: await stores.auditRecords(), problems: [] };
    } finally {
      await stores.close();
    }
  }
  let head: string;
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
      head = buffer.subarray(0, bytesRead).toString('latin1');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') throw new CliError('CLI_FILE_NOT_FOUND', `${path}: no such file`, { cause: error });
    throw new CliError('CLI_FILE_UNREADABLE', `${path}: cannot be read (${String(code ?? error)})`, { cause: error });
  }
  if (head === SQLITE_MAGIC) {
    try {
      return { records: readSqliteAuditRecords(path), problems: [] };
    } catch (error) {
      throw new CliError('CLI_CORRUPT_FILE', `${path}: not a readable audit database (${errorMessage(error)})`, { cause: error });
    }
  }
  const { events, lineNumbers, problems } = await readAuditLog(path);
  // A record cut off mid-write (a crash) is skipped wherever it is: a reopened JsonlAuditBus
  // seals it with a newline and appends after it, continuing the chain from the last whole
  // record. A whole record someone cut short is still caught: the next record of its session
  // names its hash, so the chain breaks. Any other unreadable line breaks the log.
  return {
    records: events.map((event, i) => ({ event, location: `${path}:${lineNumbers[i] ?? 0}` })),
    problems: problems.map((p) => ({ message: p.message, allowed: p.kind === 'torn' })),
  };
}

/** `headway audit`. */
export async function auditCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, AUDIT_USAGE);
  const [sub, path, ...rest] = positionals;
  if (showHelp(values, AUDIT_HELP, io)) return EXIT.ok;
  if (sub !== 'verify')
    throw new CliError(
      'CLI_USAGE',
      `${sub === undefined ? 'audit needs a command' : `unknown audit command ${JSON.stringify(sub)}`}\nusage: ${AUDIT_USAGE}`,
    );
  if (path === undefined || rest.length > 0) throw new CliError('CLI_USAGE', `audit verify takes one PATH\nusage: ${AUDIT_USAGE}`);
  const { records, problems } = await readAuditRecords(path);
  let result: AuditChainResult = verifyAuditChain(records);
  // A line that is not an audit record at all breaks the log too, unless it is a torn write.
  const invalid = problems.filter((p) => !p.allowed).map((p) => p.message);
  if (result.ok && invalid.length > 0) result = { ok: false, records: result.records, sessions: result.sessions };
  if (values.json === true) {
    io.stdout.write(`${terminalJson({ ...result, ...(problems.length === 0 ? {} : { problems: problems.map((p) => p.message) }) })}\n`);
  } else if (result.break !== undefined) {
    io.stdout.write(`BROKEN: ${terminalText(result.break.kind)}\n${terminalLines(result.break.message)}\n`);
  } else if (invalid.length > 0) {
    io.stdout.write(`BROKEN: unreadable\n${terminalLines(invalid[0] ?? '')}\n`);
  } else {
    io.stdout.write(`OK: ${result.records} records in ${result.sessions} session${result.sessions === 1 ? '' : 's'}, hash chain whole\n`);
    for (const p of problems) io.stderr.write(`headway: ${terminalLines(p.message)}\n`);
  }
  return result.ok ? EXIT.ok : EXIT.failed;
}
