// The dashboard agent's tools: a small in-memory library of documents about sorting
// algorithms, searched and read with a simulated latency so a person can watch each tool
// run, and a statistics tool that really computes.
import { defineTool, sleep, systemClock, type Clock, type Tool } from '@headway/runtime';
import { z } from 'zod';

/** One document of the library. */
interface LibraryDocument {
  id: string;
  title: string;
  year: number;
  text: string;
}

/** The documents the agent searches and reads. */
const LIBRARY: readonly LibraryDocument[] = [
  {
    id: 'merge-sort',
    title: 'Merge sort',
    year: 1945,
    text: 'Merge sort was described by John von Neumann in 1945. It splits the input in halves, sorts each and merges them: O(n log n) comparisons in every case, stable, and it needs O(n) extra memory.',
  },
  {
    id: 'insertion-sort',
    title: 'Insertion sort',
    year: 1946,
    text: 'Insertion sort was mentioned by John Mauchly in 1946. It inserts each element into the sorted prefix: O(n^2) comparisons in the worst case but O(n) on nearly sorted input, stable, in place.',
  },
  {
    id: 'quicksort',
    title: 'Quicksort',
    year: 1961,
    text: 'Quicksort was published by Tony Hoare in 1961. It partitions around a pivot and sorts both sides: O(n log n) on average, O(n^2) in the worst case, not stable, in place, and very fast in practice.',
  },
  {
    id: 'heapsort',
    title: 'Heapsort',
    year: 1964,
    text: 'Heapsort was published by J. W. J. Williams in 1964. It builds a binary heap and repeatedly removes the largest element: O(n log n) in every case, not stable, in place.',
  },
];

/** Options of {@link libraryTools}. */
export interface LibraryToolOptions {
  /** Simulated latency of `search_library` and `read_document` in ms (default 400). */
  delayMs?: number;
  /** Clock the latency runs on (default the system clock). */
  clock?: Clock;
}

/** `search_library`, `read_document` and `compute_stats`. */
export function libraryTools(options: LibraryToolOptions = {}): Tool[] {
  const delayMs = options.delayMs ?? 400;
  const clock = options.clock ?? systemClock;
  const search = defineTool({
    name: 'search_library',
    description: 'Find documents whose title or text contains every word of the query. Returns id, title and year of each.',
    parameters: z.object({ query: z.string().min(1) }),
    safe: true,
    async execute({ query }, ctx) {
      await sleep(clock, delayMs, ctx.signal);
      const words = query
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== '');
      return LIBRARY.filter((d) => words.every((w) => `${d.title} ${d.text}`.toLowerCase().includes(w))).map(({ id, title, year }) => ({
        id,
        title,
        year,
      }));
    },
  });
  const read = defineTool({
    name: 'read_document',
    description: 'Read one document of the library by its id.',
    parameters: z.object({ id: z.string().min(1) }),
    safe: true,
    async execute({ id }, ctx) {
      await sleep(clock, delayMs * 1.5, ctx.signal);
      const doc = LIBRARY.find((d) => d.id === id);
      if (doc === undefined) throw new Error(`No document with id "${id}"; search_library lists the ids`);
      return doc.text;
    },
  });
  const stats = defineTool({
    name: 'compute_stats',
    description: 'Minimum, maximum, mean and spread of a list of numbers.',
    parameters: z.object({ values: z.array(z.number()).min(1) }),
    safe: true,
    execute({ values }) {
      const min = Math.min(...values);
      const max = Math.max(...values);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return { count: values.length, min, max, mean, spread: max - min };
    },
  });
  return [search, read, stats] as Tool[];
}
