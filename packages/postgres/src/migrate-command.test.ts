import { describe, expect, it } from 'vitest';
import { runCli } from './migrate-command.js';
import { SCHEMA_VERSION } from './migrate.js';
import { usePostgres } from './testing/postgres-fixture.test-util.js';
import { TEST_PASSWORD } from '@headway/test-utils/servers';

const server = await usePostgres();

if (server !== undefined) {
  const pgServer = server;
  describe('headway-postgres migrate', () => {
    it('migrates once, then says the schema is up to date; a wrong password names the host only', async () => {
      const url = await pgServer.createDatabase('cli');
      const lines: string[] = [];
      const push = (line: string): void => {
        lines.push(line);
      };
      expect(await runCli(['migrate'], { DATABASE_URL: url }, push, push)).toBe(0);
      expect(await runCli(['migrate', '--url', url], {}, push, push)).toBe(0);
      expect(lines).toEqual([
        `headway schema migrated from version 0 to ${SCHEMA_VERSION}`,
        `headway schema is up to date (version ${SCHEMA_VERSION})`,
      ]);
      lines.length = 0;
      expect(await runCli(['migrate', '--url', url.replace(TEST_PASSWORD, 'wrong')], {}, push, push)).toBe(1);
      expect(lines[0]).toMatch(new RegExp(`^postgres 127\\.0\\.0\\.1:${pgServer.port}/cli: login refused: `));
      expect(lines.join('\n')).not.toContain(TEST_PASSWORD);
      lines.length = 0;
      expect(await runCli(['upgrade'], { DATABASE_URL: url }, push, push)).toBe(2);
      expect(lines[0]).toMatch(/^usage: headway-postgres migrate/);
    });
  });
}
