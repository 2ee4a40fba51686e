import type { RunningTool } from './live-state.js';

interface Entry extends RunningTool {
  readonly key: number;
  done: boolean;
  readonly queues: Queue[];
}

/** Entries of one id or one name, oldest first; finished ones are skipped lazily and compacted away. */
interface Queue {
  items: Entry[];
  head: number;
  dead: number;
}

/**
 * The tool calls that have started and not finished, in start order, indexed by id and by name:
 * finishing one costs O(1) (amortized) however many are running, where a search of the list
 * cost O(running) per completion (40,000 stuck and 40,000 finished calls took 8 s).
 */
export class RunningCalls {
  readonly #order = new Map<number, Entry>();
  readonly #byId = new Map<string, Queue>();
  readonly #byName = new Map<string, Queue>();
  #next = 0;

  /** How many are running. */
  get size(): number {
    return this.#order.size;
  }

  /** The `n` that started first, oldest first. */
  oldest(n: number): RunningTool[] {
    const out: RunningTool[] = [];
    if (n <= 0) return out;
    for (const entry of this.#order.values()) {
      out.push({ name: entry.name, id: entry.id, startedAt: entry.startedAt });
      if (out.length >= n) break;
    }
    return out;
  }

  start(name: string, id: string | undefined, startedAt: number): void {
    const queues = [queueOf(this.#byName, name)];
    if (id !== undefined) queues.push(queueOf(this.#byId, id));
    const entry: Entry = { name, id, startedAt, key: this.#next++, done: false, queues };
    for (const queue of queues) queue.items.push(entry);
    this.#order.set(entry.key, entry);
  }

  /** Ends the call with `id` when one is running, else the oldest of `name`; returns it, or `undefined`. */
  finish(name: string, id: string | undefined): RunningTool | undefined {
    const entry = (id === undefined ? undefined : this.#first(this.#byId, id)) ?? this.#first(this.#byName, name);
    if (entry === undefined) return undefined;
    entry.done = true;
    this.#order.delete(entry.key);
    for (const queue of entry.queues) {
      queue.dead += 1;
      compact(queue);
    }
    return entry;
  }

  clear(): void {
    this.#order.clear();
    this.#byId.clear();
    this.#byName.clear();
  }

  #first(index: Map<string, Queue>, key: string): Entry | undefined {
    const queue = index.get(key);
    if (queue === undefined) return undefined;
    while (queue.head < queue.items.length && queue.items[queue.head]?.done === true) {
      queue.head += 1;
      queue.dead -= 1;
    }
    if (queue.head >= queue.items.length) {
      index.delete(key);
      return undefined;
    }
    return queue.items[queue.head];
  }
}

function queueOf(index: Map<string, Queue>, key: string): Queue {
  let queue = index.get(key);
  if (queue === undefined) {
    queue = { items: [], head: 0, dead: 0 };
    index.set(key, queue);
  }
  return queue;
}

/** Drops finished entries once they are most of a queue: memory stays proportional to what runs. */
function compact(queue: Queue): void {
  const live = queue.items.length - queue.head - queue.dead;
  if (queue.dead < 32 || queue.dead < live) return;
  queue.items = queue.items.slice(queue.head).filter((e) => !e.done);
  queue.head = 0;
  queue.dead = 0;
}
