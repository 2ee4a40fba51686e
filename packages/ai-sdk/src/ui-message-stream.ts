import type { ProgressEvent, ProgressReport, ProgressSink } from '@headway/protocol';

/** How far a run is, as the `data-progress` part carries it. */
export interface ProgressData {
  /** 0–100, never going back; 100 only when the run completed. */
  percent: number;
  message?: string;
  etaMs?: number;
  /** `running` until the terminal event, then how the run ended. */
  status: 'running' | 'completed' | 'limit' | 'cancelled' | 'error';
}

/** The data part types this package writes, for `UIMessage<METADATA, HeadwayDataTypes>`. */
// A type alias, not an interface: the AI SDK's `UIDataTypes` constraint needs an implicit index signature.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type HeadwayDataTypes = {
  progress: ProgressData;
  report: ProgressReport;
};

/** A UI message stream chunk this package writes (a subset of the AI SDK's `UIMessageChunk`). */
export type HeadwayDataChunk =
  | { type: 'data-progress'; id: string; data: ProgressData; transient?: boolean }
  | { type: 'data-report'; id: string; data: ProgressReport };

/** Anything with the AI SDK's `UIMessageStreamWriter.write`. */
export interface DataChunkWriter {
  write(chunk: HeadwayDataChunk): void;
}

/** Options of {@link createUIMessageStreamSink}. */
export interface UIMessageStreamSinkOptions {
  /** Id of the `data-progress` part, so each update replaces the last (default `headway-progress`). */
  progressId?: string;
  /** Id of the `data-report` part (default `headway-report`). */
  reportId?: string;
  /**
   * Send progress as transient parts: delivered to `useChat`'s `onData` but kept out of the
   * message history (default false: the part stays in the message, replaced in place).
   */
  transientProgress?: boolean;
}

const STATUS = { 'run.error': 'error', 'run.cancelled': 'cancelled' } as const;

/**
 * A progress sink that writes a run into an AI SDK UI message stream: `data-progress` with a
 * stable id (each update replaces the last; transient if asked) and the final report as a
 * persistent `data-report` part. Other event types are not written.
 *
 * @example
 * ```ts
 * const stream = createUIMessageStream({
 *   execute: async ({ writer }) => {
 *     const run = withHeadway({ task, sinks: [createUIMessageStreamSink(writer)], maxIterations: 10 });
 *     const result = streamText({ model, tools, messages, ...run.settings });
 *     writer.merge(result.toUIMessageStream());
 *     await run.track(result.text);
 *   },
 * });
 * ```
 */
export function createUIMessageStreamSink(writer: DataChunkWriter, options: UIMessageStreamSinkOptions = {}): ProgressSink {
  const progressId = options.progressId ?? 'headway-progress';
  const reportId = options.reportId ?? 'headway-report';
  const transient = options.transientProgress === true;
  let last: ProgressData = { percent: 0, status: 'running' };
  const progress = (data: ProgressData): void => {
    last = data;
    writer.write(
      transient ? { type: 'data-progress', id: progressId, data, transient: true } : { type: 'data-progress', id: progressId, data },
    );
  };
  return (event: ProgressEvent) => {
    switch (event.type) {
      case 'progress': {
        const data: ProgressData = { percent: event.percent, status: 'running' };
        if (event.message !== undefined) data.message = event.message;
        if (event.etaMs !== undefined) data.etaMs = event.etaMs;
        progress(data);
        return;
      }
      case 'report.generated':
        writer.write({ type: 'data-report', id: reportId, data: event.report });
        return;
      case 'run.finished':
        progress({ percent: last.percent, ...(last.message === undefined ? {} : { message: last.message }), status: event.outcome });
        return;
      case 'run.error':
      case 'run.cancelled':
        progress({ percent: last.percent, ...(last.message === undefined ? {} : { message: last.message }), status: STATUS[event.type] });
        return;
      default:
        return;
    }
  };
}
