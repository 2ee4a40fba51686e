import type { Writable } from 'node:stream';

/**
 * A reporter written from scratch: seven methods, no base class, no headway import at all.
 * Any object with these methods is a `ProgressReporter` (checked with `isProgressReporter`).
 */
export class JsonLinesReporter {
  private readonly out: Writable;
  private readonly clock: () => number;

  constructor(out: Writable, clock: () => number = Date.now) {
    this.out = out;
    this.clock = clock;
  }

  private write(event: string, data: Record<string, unknown>): void {
    // One write per line, so lines never interleave with other writers of the stream.
    this.out.write(`${JSON.stringify({ t: this.clock(), event, ...data })}\n`);
  }

  onStart(task: string): void {
    this.write('start', { task });
  }
  onProgress(pct: number, label: string): void {
    this.write('progress', { pct, label });
  }
  onToolStart(name: string): void {
    this.write('tool_start', { tool: name });
  }
  onToolDone(name: string, summary: string): void {
    this.write('tool_done', { tool: name, summary });
  }
  onIteration(i: number, maxIterations: number): void {
    this.write('iteration', { current: i, max: maxIterations });
  }
  onComplete(summary: string): void {
    this.write('complete', { summary });
  }
  onError(error: string): void {
    this.write('error', { error });
  }
}
