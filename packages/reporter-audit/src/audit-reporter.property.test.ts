import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, createProgressHub } from '@headway/protocol';
import { secretArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditBus } from './audit-bus.js';
import type { AuditEvent } from './audit-event.js';
import { AuditReporter } from './audit-reporter.js';
import { JsonlAuditBus } from './jsonl-audit-bus.js';
import { MemoryAuditBus } from './memory-audit-bus.js';
import { SqliteAuditBus } from './sqlite-audit-bus.js';

const root = mkdtempSync(join(tmpdir(), 'headway-audit-redact-'));
let n = 0;
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Secrets as they turn up in tool args and results; `secret` is the part that must never be written. */
const SECRETS = {
  openai: 'sk-proj-Zx81KfPq0LmN3vB7tY2wR5sU9hJ4gD6c',
  anthropic: 'sk-ant-api03-Q1w2E3r4T5y6U7i8O9p0AaSsDdFf',
  bearer: 'b3ar3rT0kenValue1234567890abcdef',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  github: 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  slack: 'xoxb-2049-9998887776-AbCdEfGhIjKlMn',
  urlPassword: 'pgPassw0rdInUrl',
  kvPassword: 'hunter2hunter2-kv',
  pem: 'MIIEowIBAAKCAQEA7bq98Secretkeybody0123456789',
  jwtBody: 'eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  configuredPath: 'acct-000-111-222-333',
  apiKeyField: 'plain-looking-api-key-value',
  nestedToken: 'nested-token-value-42',
  dbPassword: 'db-pass-Vq83nd-plain',
  postgresPassword: 'pg-pass-K2m9x-plain',
  awsSecret: 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLE',
  githubToken: 'gh-token-not-ghp-shaped-771',
  dbPasswordKey: 'key-db-password-value-19',
  openaiKeyKey: 'key-openai-api-key-value-28',
  githubTokenKey: 'key-github-token-value-37',
} as const;

const secretList = Object.values(SECRETS);

function feed(reporter: AuditReporter): void {
  const hub = createProgressHub({ runId: 'run-1', clock: new ManualClock({ start: 1_700_000_000_000 }) });
  hub.add(reporter);
  hub.emit({ type: 'run.started', agentName: 'demo', task: `deploy with key ${SECRETS.openai}` });
  hub.emit({
    type: 'tool.executing',
    toolName: 'http_request',
    toolCallId: 'call-1',
    args: {
      url: `postgres://admin:${SECRETS.urlPassword}@db.internal:5432/app`,
      headers: { Authorization: `Bearer ${SECRETS.bearer}` },
      apiKey: SECRETS.apiKeyField,
      accountNumber: SECRETS.configuredPath,
      body: `config: aws_access_key_id=${SECRETS.aws}\npassword=${SECRETS.kvPassword}`,
      deep: [{ auth: { token: SECRETS.nestedToken } }],
      env: `DB_PASSWORD=${SECRETS.dbPassword}\nPOSTGRES_PASSWORD: ${SECRETS.postgresPassword}`,
      config: { db_password: SECRETS.dbPasswordKey, OPENAI_API_KEY: SECRETS.openaiKeyKey, github_token: SECRETS.githubTokenKey },
    },
  });
  hub.emit({
    type: 'tool.completed',
    toolName: 'http_request',
    toolCallId: 'call-1',
    durationMs: 31,
    ok: true,
    preview: `{"token":"eyJhbGciOiJIUzI1NiJ9.${SECRETS.jwtBody}","gh":"${SECRETS.github}"}`,
  });
  hub.emit({ type: 'thinking', content: `The slack token ${SECRETS.slack} worked; export AWS_SECRET_ACCESS_KEY=${SECRETS.awsSecret}` });
  hub.emit({ type: 'intermediate.result', content: `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.pem}\n-----END RSA PRIVATE KEY-----` });
  hub.emit({
    type: 'report.generated',
    report: {
      task: 'deploy',
      reason: 'max-iterations',
      completedWork: [`used ${SECRETS.anthropic}`],
      keyFindings: [],
      attemptedInconclusive: [],
      remaining: [],
      suggestedNextSteps: [],
      stats: { iterations: 3, toolCalls: 1, elapsedMs: 10 },
      generatedBy: 'model',
    },
  });
  hub.emit({ type: 'run.error', error: `401 for Bearer ${SECRETS.bearer}` });
  // The seven methods, as a runtime that only speaks them would call them.
  reporter.onStart(`task with ${SECRETS.github}`);
  reporter.onToolStart('http_request');
  reporter.onToolDone('http_request', `returned ${SECRETS.aws} and password=${SECRETS.kvPassword}`);
  reporter.onProgress(50, `using ${SECRETS.openai}`);
  reporter.onComplete(`done with ${SECRETS.slack}`);
  reporter.onError(`failed: ${SECRETS.anthropic} with GITHUB_TOKEN=${SECRETS.githubToken}`);
}

function options(bus: AuditBus): ConstructorParameters<typeof AuditReporter>[0] {
  return { sessionId: 'session-1', taskId: 'task-1', bus, redact: { paths: ['detail.args.accountNumber', 'detail.args.apiKey'] } };
}

function leaked(bytes: Buffer): string[] {
  return secretList.filter((s) => bytes.includes(s));
}

function sqliteBytes(file: string): Buffer {
  return Buffer.concat([file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

describe('redaction before every bus', () => {
  it('writes none of the secrets to a memory bus, a JSONL file, a SQLite file or a user bus', () => {
    const memory = new MemoryAuditBus();
    const subscribed: AuditEvent[] = [];
    memory.subscribe((e) => subscribed.push(e));
    const jsonlFile = join(root, 'all', 'audit.jsonl');
    const jsonl = new JsonlAuditBus(jsonlFile, { fsync: true });
    const sqliteFile = join(root, 'all', 'audit.db');
    const sqlite = new SqliteAuditBus(sqliteFile);
    const userBytes: string[] = [];
    const user: AuditBus = { publish: (e) => void userBytes.push(JSON.stringify(e)) };

    const reporters = [memory, jsonl, sqlite, user].map((bus) => new AuditReporter(options(bus)));
    for (const r of reporters) feed(r);
    for (const r of reporters) {
      expect(r.failures).toBe(0);
      expect(r.published).toBe(13);
    }

    expect(leaked(Buffer.from(JSON.stringify(memory.events)))).toEqual([]);
    expect(leaked(Buffer.from(JSON.stringify(subscribed)))).toEqual([]);
    expect(leaked(Buffer.from(userBytes.join('\n')))).toEqual([]);
    expect(leaked(readFileSync(jsonlFile))).toEqual([]);
    expect(leaked(sqliteBytes(sqliteFile))).toEqual([]); // WAL not yet checkpointed
    sqlite.close();
    jsonl.close();
    expect(leaked(readFileSync(jsonlFile))).toEqual([]);
    expect(leaked(sqliteBytes(sqliteFile))).toEqual([]);

    // What is left is still useful: labels stay, values go.
    const args = memory.query({ eventType: 'agent.progress.tool_start' })[0]?.detail.args;
    expect(args).toEqual({
      url: 'postgres://admin:[REDACTED]@db.internal:5432/app',
      headers: { Authorization: '[REDACTED]' },
      apiKey: '[REDACTED]',
      accountNumber: '[REDACTED]',
      body: 'config: aws_access_key_id=[REDACTED]\npassword=[REDACTED]',
      deep: [{ auth: { token: '[REDACTED]' } }],
      env: 'DB_PASSWORD=[REDACTED]\nPOSTGRES_PASSWORD: [REDACTED]',
      config: { db_password: '[REDACTED]', OPENAI_API_KEY: '[REDACTED]', github_token: '[REDACTED]' },
    });
  });

  it('would catch a secret that reached the bytes (control: publishing straight to each bus)', () => {
    const jsonlFile = join(root, 'control', 'audit.jsonl');
    const sqliteFile = join(root, 'control', 'audit.db');
    const jsonl = new JsonlAuditBus(jsonlFile);
    const sqlite = new SqliteAuditBus(sqliteFile);
    const raw: AuditEvent = {
      eventType: 'agent.progress.tool_start',
      category: 'agent',
      result: 'allow',
      sessionId: 's',
      taskId: 't',
      timestamp: 1,
      detail: { args: { key: SECRETS.openai } },
    };
    jsonl.publish(raw);
    sqlite.publish(raw);
    expect(leaked(readFileSync(jsonlFile))).toEqual([SECRETS.openai]);
    expect(leaked(sqliteBytes(sqliteFile))).toEqual([SECRETS.openai]);
    sqlite.close();
    jsonl.close();
    expect(leaked(sqliteBytes(sqliteFile))).toEqual([SECRETS.openai]);
  });

  it('lets no generated secret through to the SQLite file', () => {
    fc.assert(
      fc.property(secretArb, fc.constantFrom('args', 'preview', 'summary'), (s, where) => {
        const file = join(root, `gen-${(n += 1)}`, 'audit.db');
        const bus = new SqliteAuditBus(file);
        const reporter = new AuditReporter(options(bus));
        if (where === 'summary') reporter.onToolDone('t', s.text);
        else if (where === 'args')
          reporter.handle({ runId: 'r', seq: 1, ts: 1, type: 'tool.executing', toolName: 't', args: { q: s.text } });
        else
          reporter.handle({ runId: 'r', seq: 1, ts: 1, type: 'tool.completed', toolName: 't', durationMs: 1, ok: true, preview: s.text });
        expect(reporter.published).toBe(1);
        bus.close();
        expect(sqliteBytes(file).includes(s.secret)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
