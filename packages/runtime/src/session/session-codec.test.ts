import { describe, expect, it } from 'vitest';
import { SessionError } from './session-error.js';
import { decodeSummaryRow, encodeRun, validateSessionId } from './session-codec.js';

describe('decodeSummaryRow', () => {
  it('reads a headway_sessions row as a summary', () => {
    const row = { id: 'chat-1', created_at: 1, updated_at: 2, message_count: 3, spent_usd: 0.5, calls: 4, runs: 2 };
    expect(decodeSummaryRow(row)).toEqual({ id: 'chat-1', createdAt: 1, updatedAt: 2, messageCount: 3, spentUsd: 0.5, calls: 4, runs: 2 });
  });

  it('names the session and the column of a corrupt row, and survives a row that is not an object', () => {
    const row = { id: 'chat-1', created_at: 1, updated_at: 2, message_count: -1, spent_usd: 0, calls: 0, runs: 0 };
    expect(() => decodeSummaryRow(row)).toThrow(/^session chat-1: unreadable: message_count/);
    expect(() => decodeSummaryRow(row)).toThrow(expect.objectContaining({ code: 'SESSION_CORRUPT' }));
    expect(() => decodeSummaryRow(undefined)).toThrow(SessionError);
    expect(() => decodeSummaryRow(null)).toThrow(/^session \?: unreadable/);
  });
});

describe('validateSessionId', () => {
  it('refuses a 100,000-character id with SESSION_INVALID whose message repeats 64 characters of it and its length, not all of it', () => {
    const id = 'a'.repeat(100_000);
    let error: unknown;
    try {
      validateSessionId(id);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).code).toBe('SESSION_INVALID');
    expect((error as Error).message).toBe(
      `session ${'a'.repeat(63)}… (100000 characters): invalid id: id: too big: expected string to have <=512 characters`,
    );
  });

  it('repeats an id of up to 64 characters whole', () => {
    expect(() => encodeRun('c'.repeat(64), { messages: [], spentUsd: -1, calls: 0 })).toThrow(
      `session ${'c'.repeat(64)}: invalid run: run.spentUsd: too small`,
    );
  });
});
