import { describe, expect, it } from 'vitest';
import { parseContinueRequest, parseRunRequest } from './run-request.js';

describe('POST /api/runs body', () => {
  it('accepts an empty body and a full one', () => {
    expect(parseRunRequest('')).toEqual({ ok: true, request: {} });
    expect(parseRunRequest('{"task":" Sort things ","maxIterations":3,"provider":"scripted","timeBudgetMs":2000}')).toEqual({
      ok: true,
      request: { task: 'Sort things', maxIterations: 3, provider: 'scripted', timeBudgetMs: 2000 },
    });
  });

  it('names the field and the problem', () => {
    expect(parseRunRequest('{"maxIterations":0,"provider":"claude","extra":1}')).toMatchInlineSnapshot(`
      {
        "message": "maxIterations: too small: expected number to be >=1; provider: invalid option: expected one of "scripted"|"openai"; (root): unrecognized key: "extra"",
        "ok": false,
      }
    `);
    expect(parseRunRequest('{"task":').ok).toBe(false);
    expect(parseRunRequest('[1]')).toMatchObject({ ok: false, message: expect.stringContaining('(root)') as string });
  });
});

describe('POST /api/runs/<id>/continue body', () => {
  it('accepts an empty body or an iteration cap, and nothing else', () => {
    expect(parseContinueRequest('')).toEqual({ ok: true, request: {} });
    expect(parseContinueRequest('{"maxIterations":12}')).toEqual({ ok: true, request: { maxIterations: 12 } });
    expect(parseContinueRequest('{"maxIterations":51,"task":"ignore the report"}')).toMatchInlineSnapshot(`
      {
        "message": "maxIterations: too big: expected number to be <=50; (root): unrecognized key: "task"",
        "ok": false,
      }
    `);
    expect(parseContinueRequest('{"__proto__":{"maxIterations":1}}')).toMatchObject({ ok: false });
    expect(parseContinueRequest('null')).toMatchObject({ ok: false });
  });
});
