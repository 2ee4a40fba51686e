import { createServer, type RequestListener } from 'node:http';

/** Starts a real HTTP server on 127.0.0.1 with an ephemeral port. */
export async function listen(listener: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A GET that reads the whole body (the server must end it). */
export async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.text() };
}

/** The `id:` values of the frames in an SSE body. */
export function frameIds(body: string): number[] {
  return [...body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
}
