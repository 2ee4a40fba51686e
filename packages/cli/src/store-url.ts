import { existsSync } from 'node:fs';
import type { LocatedAuditEvent } from '@headway/reporter-audit';
import type { CheckpointStore, SessionStore } from '@headway/runtime';
import { SqliteCheckpointStore } from '@headway/store-sqlite';
import { errorMessage } from '@headway/protocol/internal';
import { CliError } from './cli-error.js';

/** The stores behind a `--store` URL. */
export interface OpenedStores {
  checkpoints: CheckpointStore;
  sessions: SessionStore | undefined;
  /** Every audit record in storage order (Postgres only: `headway audit verify postgres://…`). */
  auditRecords?: () => Promise<LocatedAuditEvent[]>;
  close(): Promise<void> | void;
}

// eslint-disable-next-line @typescript-eslint/no-inferrable-types -- isolatedDeclarations needs the type of a template literal
export const STORE_URL_HELP: string = `--store URL      sqlite:PATH (a file @headway/store-sqlite wrote) or postgres://… (needs
                   @headway/postgres installed; a password may hold / @ :, raw or
                   percent-encoded, and is never printed); default $HEADWAY_STORE`;

/** The shape `headway` expects of `@headway/postgres`, loaded only for a `postgres://` URL. */
interface PostgresModule {
  createPostgresStores?: (url: string) => Promise<OpenedStores> | OpenedStores;
}

/**
 * Opens the checkpoint and session stores a `--store` URL names.
 *
 * @throws {CliError} `CLI_STORE_URL` (exit 2) for a URL of another scheme or without a path,
 * `CLI_FILE_NOT_FOUND` for a SQLite file that does not exist (it is never created here),
 * `CLI_STORE_MISSING` when `@headway/postgres` is not installed.
 */
export async function openStores(url: string | undefined): Promise<OpenedStores> {
  if (url === undefined || url === '') {
    throw new CliError('CLI_STORE_URL', 'no store: pass --store sqlite:PATH or --store postgres://… (or set HEADWAY_STORE)');
  }
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') throw new CliError('CLI_STORE_URL', `${url}: no path after sqlite:`);
    if (!existsSync(path)) throw new CliError('CLI_FILE_NOT_FOUND', `${path}: no such file (from --store ${url})`);
    let checkpoints: SqliteCheckpointStore;
    try {
      checkpoints = new SqliteCheckpointStore(path);
    } catch (error) {
      throw new CliError('CLI_CORRUPT_FILE', `${path}: not a headway store (${errorMessage(error)})`, { cause: error });
    }
    return {
      checkpoints,
      sessions: checkpoints.sessionStore(),
      close: () => {
        checkpoints.close();
      },
    };
  }
  if (/^postgres(?:ql)?:\/\//.test(url)) {
    let mod: PostgresModule;
    const name = '@headway/postgres';
    try {
      mod = (await import(name)) as PostgresModule;
    } catch (error) {
      throw new CliError('CLI_STORE_MISSING', `${redactUrl(url)} needs @headway/postgres: npm install @headway/postgres`, { cause: error });
    }
    if (typeof mod.createPostgresStores !== 'function') {
      throw new CliError('CLI_STORE_MISSING', 'the installed @headway/postgres has no createPostgresStores(url); update it');
    }
    return await mod.createPostgresStores(postgresUrl(url));
  }
  throw new CliError('CLI_STORE_URL', `${redactUrl(url)}: not a store URL; expected sqlite:PATH or postgres://…`);
}

/**
 * The user info of a `scheme://user:password@host…` URL, split at its last `@`: a password may
 * hold `/`, `@`, `:`, `?` or `#` (written raw, or percent-encoded as the URL rules want).
 */
function splitAuthority(url: string): { scheme: string; user: string | undefined; password: string | undefined; rest: string } {
  const at = url.indexOf('://');
  const scheme = url.slice(0, at + 3);
  const tail = url.slice(at + 3);
  // The last `@` of all: a password may hold `/`, `?`, `#` and `@` too. (An `@` in a query
  // value must then be percent-encoded, as the URL rules say anyway.)
  const lastAt = tail.lastIndexOf('@');
  if (lastAt === -1) return { scheme, user: undefined, password: undefined, rest: tail };
  const info = tail.slice(0, lastAt);
  const colon = info.indexOf(':');
  return {
    scheme,
    user: colon === -1 ? info : info.slice(0, colon),
    password: colon === -1 ? undefined : info.slice(colon + 1),
    rest: tail.slice(lastAt + 1),
  };
}

/** A percent-encoded part as its text; a part that is not valid percent-encoding is taken as written. */
function decodePart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A `postgres://` URL with its user and password percent-encoded, as the driver reads them:
 * `postgres://me:p@ss/w@db/agents` and `postgres://me:p%40ss%2Fw@db/agents` name the same login.
 *
 * @throws {CliError} `CLI_STORE_URL` (exit 2) when no host and database can be read from it; the
 * message shows the URL with its password hidden.
 */
function postgresUrl(url: string): string {
  const { scheme, user, password, rest } = splitAuthority(url);
  const info =
    user === undefined
      ? ''
      : `${encodeURIComponent(decodePart(user))}${password === undefined ? '' : `:${encodeURIComponent(decodePart(password))}`}@`;
  const normalized = `${scheme}${info}${rest}`;
  let parsed: URL;
  try {
    parsed = new URL(normalized);
  } catch (error) {
    throw new CliError('CLI_STORE_URL', `${redactUrl(url)}: not a valid postgres:// URL; percent-encode special characters`, {
      cause: error,
    });
  }
  if (parsed.hostname === '' && !parsed.searchParams.has('host')) {
    throw new CliError('CLI_STORE_URL', `${redactUrl(url)}: no host in the postgres:// URL`);
  }
  return normalized;
}

/** The URL without its password (which may hold `/`, `@` or `:`), for messages. */
function redactUrl(url: string): string {
  if (!url.includes('://')) return url;
  const { scheme, user, password, rest } = splitAuthority(url);
  if (user === undefined) return url;
  return `${scheme}${user}${password === undefined ? '' : ':***'}@${rest}`;
}
