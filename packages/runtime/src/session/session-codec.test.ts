import { describe, expect, it } from 'vitest';
import { SessionError } from './session-error.js';
import { decodeSummaryRow } from './session-codec.js';

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
