import type { ProgressEvent } from '@headway/protocol';

/** Options of {@link WebhookReporter}. */
export interface WebhookReporterOptions {
  url: string;
  /** Event types to post (default: the ones a chat channel cares about). */
  types?: readonly ProgressEvent['type'][];
  /** Give up on one post after this long (default 2 s); the run never waits for it. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_TYPES: readonly ProgressEvent['type'][] = [
  'run.started',
  'limit.reached',
  'report.generated',
  'run.finished',
  'run.error',
  'run.cancelled',
];

/**
 * A reporter that posts selected events to a webhook. It implements `handle(event)`, so a
 * progress hub (or `deps.sinks` of the runtime) feeds it the full event stream. Posts are
 * fire-and-forget with a timeout: a slow or dead webhook never slows the agent down.
 */
export class WebhookReporter {
  readonly failures: string[] = [];
  private readonly options: Required<Omit<WebhookReporterOptions, 'fetch'>> & { fetch: typeof fetch };
  private readonly pending = new Set<Promise<void>>();

  constructor(options: WebhookReporterOptions) {
    this.options = { types: DEFAULT_TYPES, timeoutMs: 2000, fetch: globalThis.fetch, ...options };
  }

  handle(event: ProgressEvent): void {
    if (!this.options.types.includes(event.type)) return;
    const post = this.options
      .fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      })
      .then(
        (res) => {
          if (!res.ok) this.failures.push(`${event.type}: HTTP ${res.status}`);
        },
        (error: unknown) => {
          this.failures.push(`${event.type}: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => this.pending.delete(post));
    this.pending.add(post);
  }

  /** Waits for posts still in flight (for a clean exit). */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
