import { errorSnapshot } from '@headway/protocol/testing';
import { expect, it } from 'vitest';
import { CliError, EXIT } from './cli-error.js';

it('exits with 2 for usage errors and 1 for the others unless told otherwise', () => {
  const usage = new CliError('CLI_USAGE', 'unknown option --x');
  expect(errorSnapshot(usage)).toMatchObject({ name: 'CliError', inspectHead: 'CliError: unknown option --x', isInstance: true });
  expect([usage.exitCode, new CliError('CLI_STORE_URL', 'x').exitCode]).toEqual([EXIT.usage, EXIT.usage]);
  expect(new CliError('CLI_FILE_NOT_FOUND', 'x').exitCode).toBe(EXIT.failed);
  expect(new CliError('CLI_NOT_FOUND', 'x', { exitCode: EXIT.stoppedShort }).exitCode).toBe(EXIT.stoppedShort);
});
