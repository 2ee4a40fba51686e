import { describe, expect, it } from 'vitest';
import { startLineProcess } from './test-process.js';

const ECHO =
  "process.stdin.setEncoding('utf8').on('data', (d) => process.stdout.write(d)); console.log('{\"ready\":true}'); console.log('plain');";

describe('startLineProcess', () => {
  it('keeps the lines, waits on one, writes to stdin and kills the process', async () => {
    const echo = startLineProcess(process.execPath, ['-e', ECHO]);
    expect(await echo.waitFor((l) => l === 'plain')).toBe('plain');
    echo.send('hello');
    expect(await echo.waitFor((l) => l === 'hello')).toBe('hello');
    expect(echo.lines).toEqual(['{"ready":true}', 'plain', 'hello']);
    await echo.kill();
    await expect(echo.waitFor((l) => l === 'never')).rejects.toThrow(/already exited/);
  });

  it('parses lines and skips those the parser refuses', async () => {
    const parse = (line: string): { ready: boolean } | undefined =>
      line.startsWith('{') ? (JSON.parse(line) as { ready: boolean }) : undefined;
    const echo = startLineProcess(process.execPath, ['-e', ECHO], { name: 'echo', parse });
    expect(await echo.waitFor((m) => m.ready)).toEqual({ ready: true });
    await echo.kill('SIGTERM');
    expect(echo.lines).toEqual([{ ready: true }]);
  });

  it('rejects a waiter when the process exits first, naming it', async () => {
    const quits = startLineProcess(process.execPath, ['-e', "console.error('bye'); process.exit(3)"], { name: 'quitter' });
    await expect(quits.waitFor(() => false)).rejects.toThrow(/quitter exited \(3\) before the awaited line:\nbye/);
  });
});
