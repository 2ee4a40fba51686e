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
                   @headway/postgres installed); default $HEADWAY_STORE`;

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
    return await mod.createPostgresStores(url);
  }
  throw new CliError('CLI_STORE_URL', `${redactUrl(url)}: not a store URL; expected sqlite:PATH or postgres://…`);
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}
