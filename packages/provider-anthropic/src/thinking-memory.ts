import type { ThinkingBlock } from './message-assembler.js';

/**
 * The thinking blocks of recent answers, by the ids of the tool calls they came with.
 *
 * Why: with extended thinking on, the API wants an answer's thinking blocks (with their
 * signatures) back, unchanged, in the next request of the same tool loop; the runtime's
 * conversation has no place for them. Bounded: the oldest entries go first.
 */
export class ThinkingMemory {
  readonly #max: number;
  readonly #entries = new Map<string, readonly ThinkingBlock[]>();

  constructor(max: number) {
    this.#max = Math.max(0, Math.floor(max));
  }

  /** Remembers `blocks` for each of `toolCallIds` (nothing when there is no block). */
  remember(toolCallIds: readonly string[], blocks: readonly ThinkingBlock[]): void {
    if (blocks.length === 0 || this.#max === 0) return;
    const kept = Object.freeze(blocks.map((b) => Object.freeze({ ...b })));
    for (const id of toolCallIds) {
      this.#entries.delete(id);
      this.#entries.set(id, kept);
    }
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#max) break;
      this.#entries.delete(oldest);
    }
  }

  /** The blocks that came with a tool call, if they are still remembered. */
  recall(toolCallId: string): readonly ThinkingBlock[] | undefined {
    return this.#entries.get(toolCallId);
  }
}
