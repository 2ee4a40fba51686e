// The checkpoint load the store benches write: 2 KB messages, and each iteration written the way
// the runtime writes it — the model's tool request with the call started, the tool's result with
// the call finished, then the iteration itself (verification prompt, state).
import type { CheckpointInit, CheckpointState, CheckpointUpdate } from '@headway/runtime';

/** The length of every generated message, in characters. */
export const MESSAGE_CHARS = 2_048;

/** A message of exactly {@link MESSAGE_CHARS} characters, named by what it is and its iteration. */
export function roundText(round: number, what: string): string {
  const head = `${what} of round ${round}: `;
  return head + 'lorem ipsum dolor sit amet '.repeat(Math.ceil(MESSAGE_CHARS / 27)).slice(0, MESSAGE_CHARS - head.length);
}

/** A new checkpoint `id` (run `run-<id>`) holding the system prompt and the task. */
export function checkpointInit(id: string, state: CheckpointState): CheckpointInit {
  return {
    id,
    runId: `run-${id}`,
    sessionId: 's',
    taskId: 't',
    input: 'Summarize the repository',
    state,
    messages: [
      { role: 'system', content: roundText(0, 'system') },
      { role: 'user', content: 'Summarize the repository' },
    ],
  };
}

/** The three updates of iteration `round`, in the order the runtime writes them; `state(i)` is the state after iteration i. */
export function iterationUpdates(round: number, state: (iteration: number) => CheckpointState): CheckpointUpdate[] {
  const call = { toolCallId: `c${round}`, name: 'file_read', args: { path: `src/file-${round}.ts` }, index: 0 };
  return [
    {
      appendMessages: [
        {
          role: 'assistant',
          content: roundText(round, 'assistant'),
          toolCalls: [{ id: call.toolCallId, name: call.name, args: call.args }],
        },
      ],
      clearToolCalls: true,
      toolCalls: [{ ...call, status: 'started' }],
      state: state(round - 1),
      lastSeq: round * 8,
    },
    {
      appendMessages: [{ role: 'tool', toolCallId: call.toolCallId, name: call.name, content: roundText(round, 'tool result') }],
      appendLog: [
        {
          kind: 'tool',
          iteration: round,
          name: call.name,
          args: JSON.stringify(call.args),
          resultBrief: roundText(round, 'brief').slice(0, 500),
          ok: true,
          durationMs: 40,
        },
      ],
      toolCalls: [{ ...call, status: 'finished', ok: true, result: roundText(round, 'tool result'), durationMs: 40 }],
      state: state(round - 1),
      lastSeq: round * 8 + 3,
    },
    {
      appendMessages: [{ role: 'user', content: 'Has the done-criterion been met?' }],
      clearToolCalls: true,
      state: state(round),
      lastSeq: round * 8 + 6,
    },
  ];
}
