// `headway` against a real PostgreSQL server, as child processes: the server and databases come from
// @headway/postgres's test helpers (initdb + postgres on 127.0.0.1, skipped with a reason when absent).
import { createPostgresStores, PostgresAuditBus } from '@headway/postgres';
import { describe, expect, it } from 'vitest';
import { freshPool, usePostgres } from '../../postgres/src/testing/postgres-fixture.test-util.js';
import { runCli } from './run-cli.test-util.js';
import { storeSampleRuns } from './stored-runs.test-util.js';

const server = await usePostgres();

if (server !== undefined) {
  const pgServer = server;
  describe('headway --store postgres://…', () => {
    it('lists runs, shows cost and verifies the audit chain from the server', async () => {
      const { pool, url } = await freshPool(pgServer);
      const stores = createPostgresStores(url);
      await storeSampleRuns(stores.checkpoints, stores.sessions);
      await stores.close();

      const list = await runCli(['runs', 'list', '--store', url]);
      expect(list).toMatchObject({ code: 0, stderr: '' });
      expect(list.stdout.split('\n')[0]).toMatch(/^RUN +CHECKPOINT +SESSION +STATUS +AGE +ITERATION +SPENT +STRATEGY +CONTINUES$/);
      expect(list.stdout.split('\n')[1]).toMatch(/^run-1 +cp-live +s-1 +interrupted +\S+ +2 +\$0\.0123 +resume +-$/);
      expect(list.stdout.split('\n')[2]).toBe('');
      const all = JSON.parse((await runCli(['runs', 'list', '--all', '--json', '--store', url])).stdout) as { id: string }[];
      expect(all.map((r) => r.id).sort()).toEqual(['cp-done', 'cp-live']);
      const cost = await runCli(['cost', '--json', '--store', url]);
      expect(cost.code).toBe(0);
      expect(cost.stdout).toContain('0.5123');

      const bus = new PostgresAuditBus(pool);
      for (const tool of ['read', 'write', 'test']) {
        await bus.publish({
          eventType: 'agent.progress.tool_start',
          category: 'agent',
          result: 'allow',
          sessionId: 's-1',
          taskId: 't-1',
          timestamp: 1,
          detail: { tool },
        });
      }
      expect(await runCli(['audit', 'verify', url])).toEqual({
        code: 0,
        stdout: 'OK: 3 records in 1 session, hash chain whole\n',
        stderr: '',
      });
      await pool.query("UPDATE headway_audit_events SET body = replace(body, 'write', 'rm -rf') WHERE id = 2");
      const broken = await runCli(['audit', 'verify', url]);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toBe(
        `BROKEN: edited\n127.0.0.1:${pgServer.port}/${new URL(url).pathname.slice(1)}#2: record of session "s-1" was edited: its content does not match its hash\n`,
      );
      await pool.end();
    });

    it('names the server, never the password, when nothing listens there', async () => {
      const { code, stderr } = await runCli(['runs', 'list', '--store', 'postgres://me:secret@127.0.0.1:1/agents']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^headway runs: postgres 127\.0\.0\.1:1\/agents: cannot connect: connect ECONNREFUSED 127\.0\.0\.1:1/);
      expect(stderr).not.toContain('secret');
    });

    it('logs in with a password holding / @ : ? #, written raw or percent-encoded, and never prints it', async () => {
      const { pool, url } = await freshPool(pgServer);
      const role = `tricky_${process.pid}`;
      const password = 'p@ss/w:rd?#x';
      await pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      const db = new URL(url).pathname.slice(1);
      await pool.query(`GRANT ALL ON DATABASE ${db} TO ${role}`);
      await pool.query(`GRANT ALL ON SCHEMA public TO ${role}`);
      const stores = createPostgresStores(url);
      await storeSampleRuns(stores.checkpoints, stores.sessions);
      await stores.close();
      await pool.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
      await pool.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
      const hostPath = `127.0.0.1:${pgServer.port}/${db}`;
      for (const written of [password, encodeURIComponent(password)]) {
        const list = await runCli(['runs', 'list', '--store', `postgres://${role}:${written}@${hostPath}`]);
        expect(list.stderr).toBe('');
        expect(list.code).toBe(0);
        expect(list.stdout.split('\n')[1]).toMatch(/^run-1 +cp-live +s-1 +interrupted/);
      }
      const wrong = await runCli(['runs', 'list', '--store', `postgres://${role}:${password}x@${hostPath}`]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('login refused');
      expect(wrong.stderr).not.toContain('ss/w');
      await pool.end();
    });

    it('names the server, never the password, when the login is refused', async () => {
      const { url } = await freshPool(pgServer);
      const wrong = new URL(url);
      wrong.password = 'not-the-password';
      const { code, stderr } = await runCli(['runs', 'list', '--store', wrong.href]);
      expect(code).toBe(1);
      expect(stderr).toContain(`postgres 127.0.0.1:${pgServer.port}/`);
      expect(stderr).toContain('login refused');
      expect(stderr).not.toContain('not-the-password');
    });
  });
}
