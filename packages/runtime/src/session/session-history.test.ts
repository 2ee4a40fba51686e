import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRuntime } from '../loop/agent-runtime.js';
import { ManualClock } from '../loop/clock.js';
import { ScriptedProvider } from '../provider/scripted-provider.js';
import { ids } from '../loop/test-helpers.test-util.js';
import { MemorySessionStore } from './memory-session-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function echo(): ScriptedProvider {
  return new ScriptedProvider((conversation) => ({ content: `answer to ${conversation.at(-1)?.content ?? ''}` }));
}

describe('run(input, { sessionId })', () => {
  it('reuses an existing session with its history, creates an unknown id, and makes a new one without an id', async () => {
    const sessions = new MemorySessionStore();
    const provider = echo();
    const runtime = new AgentRuntime(
      { provider: 'scripted' },
      { provider, sessionStore: sessions, generateId: ids(), clock: new ManualClock() },
    );
    await runtime.run('first question', { sessionId: 'chat-1' });
    await runtime.run('second question', { sessionId: 'chat-1' });
    expect(provider.requests[1]!.messages.slice(1).map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: first question',
      'assistant: answer to first question',
      'user: second question',
    ]);
    expect(sessions.get('chat-1')).toMatchObject({ runs: 2, messageCount: 4 });
    const fresh = await runtime.run('alone');
    expect(fresh.sessionId).toBe('id-4');
    expect(provider.requests[2]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sessions.list().map((s) => s.id)).toEqual(['chat-1', 'id-4']);
  });

  it('refuses stored history that is not a conversation', async () => {
    const sessions = new MemorySessionStore();
    sessions.create('bad');
    sessions.recordRun('bad', { messages: [{ role: 'wizard', content: 1 }], spentUsd: 0, calls: 0 });
    const runtime = new AgentRuntime({ provider: 'scripted' }, { provider: echo(), sessionStore: sessions });
    await expect(runtime.run('x', { sessionId: 'bad' })).rejects.toThrow(/session bad: history is not a conversation: messages\[0\]\.role/);
  });
});
