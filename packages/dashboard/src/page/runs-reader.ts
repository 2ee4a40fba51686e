// The list's frames, read incrementally: a snapshot of 1,000 runs of which 50 changed costs the
// check of 50 runs, and the window is handed only those.
import { readRunRecord, type PageRun } from './frames.js';
import type { LiveMessage } from './live-messages.js';
import { createStableOrder, type StableOrder } from './stable-order.js';

/**
 * Reads the `runs` frames of one stream, each a JSON text, and hands `post` what changed since the
 * previous one: the ids in their slots and the runs that are new or read differently. Only those
 * are checked against the schema; a frame with a run that does not match is refused whole, its
 * status saying what and where. Linear in the frame's size.
 */
export function createRunsReader(stream: number, post: (message: LiveMessage) => void): (data: string) => void {
  const seen = new Map<string, { text: string; run: PageRun }>();
  const order: StableOrder = createStableOrder();
  return (data) => {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      post({ kind: 'status', stream, status: { text: 'The server sent a frame this page cannot read: not JSON', kind: 'error' } });
      return;
    }
    const raws = (value as { runs?: unknown } | null)?.runs;
    if (!Array.isArray(raws)) {
      post({
        kind: 'status',
        stream,
        status: { text: 'The server sent a frame this page cannot read: frame.runs: expected array', kind: 'error' },
      });
      return;
    }
    const runs: PageRun[] = [];
    const changed: PageRun[] = [];
    const next = new Map<string, { text: string; run: PageRun }>();
    for (const [i, raw] of raws.entries()) {
      let text: string;
      try {
        text = JSON.stringify(raw);
      } catch {
        // Nesting too deep to write back (JSON.parse takes deeper than JSON.stringify gives back).
        post({
          kind: 'status',
          stream,
          status: { text: `The server sent a frame this page cannot read: frame.runs.${String(i)}: nested too deep`, kind: 'error' },
        });
        return;
      }
      const id = (raw as { id?: unknown } | null)?.id;
      const known = typeof id === 'string' ? seen.get(id) : undefined;
      if (known?.text === text) {
        runs.push(known.run);
        next.set(known.run.id, known);
        continue;
      }
      const read = readRunRecord(raw, `frame.runs.${String(i)}`);
      if (!read.ok) {
        post({ kind: 'status', stream, status: { text: `The server sent a frame this page cannot read: ${read.problem}`, kind: 'error' } });
        return;
      }
      runs.push(read.value);
      changed.push(read.value);
      next.set(read.value.id, { text, run: read.value });
    }
    seen.clear();
    for (const [id, entry] of next) seen.set(id, entry);
    post({ kind: 'runs', stream, order: order.place(runs).map((run) => run.id), changed, total: runs.length });
  };
}
