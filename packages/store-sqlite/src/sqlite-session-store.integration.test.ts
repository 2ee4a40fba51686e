import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentRuntime } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function echo(): ScriptedProvider {
  return new ScriptedProvider((conversation) => ({ content: `answer to ${conversation.at(-1)?.content ?? ''}` }));
}

function ids(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}-${String((n += 1))}`;
}

describe('AgentRuntime with a SqliteCheckpointStore', () => {
  it('keeps sessions in the checkpoint database by default, across runtimes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'headway-sessions-'));
    dirs.push(dir);
    const path = join(dir, 'agent.db');
    const store = new SqliteCheckpointStore(path);
    await new AgentRuntime({ provider: 'scripted' }, { provider: echo(), checkpointStore: store, generateId: ids('a') }).run(
      'remember 42',
      { sessionId: 'chat' },
    );
    store.close();
    const provider = echo();
    const again = new SqliteCheckpointStore(path);
    await new AgentRuntime({ provider: 'scripted' }, { provider, checkpointStore: again, generateId: ids('b') }).run('what was it?', {
      sessionId: 'chat',
    });
    expect(provider.requests[0]!.messages.map((m) => m.content).slice(1)).toEqual(['remember 42', 'answer to remember 42', 'what was it?']);
    expect(new SqliteSessionStore(again.database).get('chat')?.runs).toBe(2);
    again.close();
  });
});
