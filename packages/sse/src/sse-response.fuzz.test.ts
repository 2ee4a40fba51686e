// A request as an attacker would send it: a URL that is no URL gets a 400, not a crash.
import { describe, expect, it } from 'vitest';
import { createReplayLog } from './replay-log.js';
import { createSseResponse } from './sse-response.js';

describe('createSseResponse on hostile requests', () => {
  it('answers a request whose url is no URL with 400', async () => {
    const log = createReplayLog();
    const response = await createSseResponse({ url: 'http://[', method: 'GET', headers: new Headers() } as unknown as Request, {
      source: log,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'SSE_BAD_REQUEST', message: 'The request URL is not a valid URL' });
  });
});
