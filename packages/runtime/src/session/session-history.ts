import { HeadwayError, describeIssues, toValidationIssues } from '@headway/protocol';
import { z } from 'zod';
import { chatMessageSchema } from '../checkpoint/run-state-codec.js';
import type { CostTracker } from '../cost/cost-tracker.js';
import type { ChatMessage } from '../provider/provider.js';
import { SessionError } from './session-error.js';
import type { SessionStore } from './session-store.js';

/**
 * Opens a session for a run: an existing one's history is loaded (validated), an unknown
 * id becomes a new session. The cost tracker learns the session's stored spend (plus
 * `carried`, the spend of a resumed run so far) the first time this process sees it.
 *
 * @throws {SessionError} `SESSION_CORRUPT` when the stored history is not a conversation.
 */
export async function openSession(
  store: SessionStore,
  sessionId: string,
  costs: CostTracker,
  carried: { spentUsd: number; calls: number; unpricedCalls?: number } = { spentUsd: 0, calls: 0 },
): Promise<ChatMessage[]> {
  const existing = await store.get(sessionId);
  let history: ChatMessage[] = [];
  if (existing === undefined) {
    try {
      await store.create(sessionId);
    } catch (error) {
      // Another run created it in the meantime: that is the same session.
      if (!HeadwayError.isInstance(error, 'SESSION_EXISTS')) throw error;
    }
  } else {
    const parsed = z.array(chatMessageSchema).safeParse(existing.messages);
    if (!parsed.success) {
      const issues = toValidationIssues(parsed.error).map((i) => ({
        path: `messages${i.path.startsWith('[') ? '' : '.'}${i.path}`,
        message: i.message,
      }));
      throw new SessionError('SESSION_CORRUPT', `session ${sessionId}: history is not a conversation: ${describeIssues(issues)}`, {
        issues,
      });
    }
    history = parsed.data;
  }
  if (!costs.has(sessionId)) {
    costs.restore(
      sessionId,
      { spentUsd: (existing?.spentUsd ?? 0) + carried.spentUsd, calls: (existing?.calls ?? 0) + carried.calls },
      carried.unpricedCalls ?? 0,
    );
  }
  return history;
}
