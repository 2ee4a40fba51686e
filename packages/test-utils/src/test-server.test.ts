import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, startTestServer } from './test-server.js';

// A server that listens on the port it is given and says so, like postgres or redis-server.
const SERVER =
  "require('node:net').createServer((s) => s.end('hi')).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('Ready.'));";

function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    connect(port, '127.0.0.1')
      .setEncoding('utf8')
      .on('data', (d: string) => (text += d))
      .on('end', () => {
        resolve(text);
      })
      .on('error', reject);
  });
}

describe('startTestServer', () => {
  it('starts a server on a free port, kills it and starts it again on the same port', async () => {
    const server = await startTestServer({
      name: 'node-server',
      command: (port) => [process.execPath, '-e', SERVER, String(port)],
      ready: 'Ready.',
    });
    expect(await greeting(server.port)).toBe('hi');
    const port = server.port;
    await server.kill('SIGTERM');
    await expect(greeting(port)).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(server.port).toBe(port);
    expect(await greeting(port)).toBe('hi');
    await server.kill('SIGKILL');
  });

  it('says what the server printed when it exits at start, after every attempt', async () => {
    await expect(
      startTestServer({ name: 'broken', command: () => ['sh', '-c', 'echo no config; exit 1'], ready: 'Ready.', attempts: 2 }),
    ).rejects.toThrow(/broken exited at start:\n[\s\S]*no config/);
  });

  it('finds a port nobody listens on', async () => {
    const port = await freePort();
    await expect(greeting(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});
