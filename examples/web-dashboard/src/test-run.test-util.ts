import type { ProgressEvent } from '@headway/protocol';
import { startDashboardServer } from './server.js';
import type { RunRequest } from './run-request.js';

/** The events of one real run of the dashboard's agent (no delays unless given). */
export async function recordRun(
  request: RunRequest,
  delays: { modelDelayMs?: number; toolDelayMs?: number } = {},
): Promise<ProgressEvent[]> {
  const server = await startDashboardServer({
    pageDir: '/nonexistent',
    port: 0,
    modelDelayMs: 0,
    toolDelayMs: 0,
    chunkDelayMs: 0,
    ...delays,
  });
  try {
    const { runId } = server.startRun(request);
    await server.finished(runId);
    return server.log.events(runId) ?? [];
  } finally {
    await server.close();
  }
}
