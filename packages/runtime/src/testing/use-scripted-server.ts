import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ScriptedServer, type ScriptedServerOptions } from './scripted-server.js';

/**
 * One {@link ScriptedServer} for a vitest file: started before its tests, reset before each,
 * closed after them. Returns the server (call it inside a test or hook, once it has started).
 *
 * @example
 * ```ts
 * const server = useScriptedServer({ basePath: '/v1' });
 * it('streams', async () => {
 *   server().reply(sseReply(['data: {"x":1}\n\n']));
 *   const provider = new MyProvider({ baseURL: server().baseURL });
 * });
 * ```
 */
export function useScriptedServer(options: ScriptedServerOptions = {}): () => ScriptedServer {
  let server: ScriptedServer | undefined;
  beforeAll(async () => {
    server = await ScriptedServer.start(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
  return () => {
    if (server === undefined) throw new Error('useScriptedServer: the server starts in beforeAll; call it inside a test or hook');
    return server;
  };
}
