import { isTerminalEvent, progressEventSchema, type ProgressEvent } from '@headway/protocol';
import { HOSTILE_RUN_PARAMETERS, HOSTILE_TEST_TIMEOUT, hostileValueArb } from '@headway/protocol/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LangGraphError } from './langgraph-error.js';
import { withHeadway, type StreamableGraph } from './with-headway.js';

/**
 * A "graph" that forwards what the property gives it as LangGraph forwards its parts (through
 * `configurable.__pregel_stream.push`), yields it on its own stream too, then ends or throws.
 */
function hostileGraph(chunks: unknown[], thrown: { value: unknown } | undefined): StreamableGraph {
  return {
    stream: (_input, options) => {
      const configurable = options.configurable as { __pregel_stream: { push: (chunk: unknown) => void } };
      return Promise.resolve(
        (async function* () {
          for (const c of chunks) {
            configurable.__pregel_stream.push(c);
            yield await Promise.resolve(c);
          }
          if (thrown !== undefined) throw thrown.value;
        })(),
      );
    },
  };
}

const chunkArb = fc.oneof(
  hostileValueArb(),
  fc.tuple(
    fc.oneof(fc.constant([]), fc.array(fc.string(), { maxLength: 3 }), hostileValueArb()),
    fc.constantFrom('tasks', 'updates', 'values', 'custom'),
    fc.oneof(
      hostileValueArb(),
      fc.record({ id: fc.string(), name: fc.constantFrom('agent', 'tools'), input: hostileValueArb() }),
      fc.record({ id: fc.string(), name: fc.constantFrom('agent', 'tools'), result: hostileValueArb(), error: hostileValueArb() }),
      fc.record({ agent: fc.record({ todos: hostileValueArb() }) }),
    ),
  ),
);

describe('withHeadway (LangGraph) on a hostile stream', () => {
  it('always ends with one valid terminal event, never throws and never hangs', { timeout: HOSTILE_TEST_TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunkArb, { maxLength: 12 }),
        fc.option(fc.record({ value: hostileValueArb() }), { nil: undefined }),
        async (chunks, thrown) => {
          const events: ProgressEvent[] = [];
          const survived: [string, unknown][] = [];
          const end = await withHeadway({
            task: 'Fuzz',
            sinks: [(e) => void events.push(e)],
            planKey: 'todos',
            maxIterations: 5,
            onInternalError: (error, { where }) => void survived.push([where, error]),
          }).run(hostileGraph(chunks, thrown), {});
          expect(['completed', 'limit', 'error']).toContain(end.outcome);
          expect(events.filter(isTerminalEvent)).toHaveLength(1);
          expect(isTerminalEvent(events.at(-1) ?? { type: '' })).toBe(true);
          for (const e of events) progressEventSchema.parse(e);
          // What could not be read was skipped and said so, as a typed error.
          for (const [where, error] of survived) {
            expect(where).toBe('stream');
            expect(error).toBeInstanceOf(LangGraphError);
          }
        },
      ),
      HOSTILE_RUN_PARAMETERS,
    );
  });
});
