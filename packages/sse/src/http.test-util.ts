import { createServer, request, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Cuts every open connection, as a network failure would. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Starts a real HTTP server on 127.0.0.1 with an ephemeral port. */
export async function listen(listener: RequestListener): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const server = createServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const dropConnections = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    dropConnections,
    close: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A plain HTTP request that reads the whole body (the server must end it). */
export function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
