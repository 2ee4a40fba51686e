/**
 * Where a failure that headway survived happened: `where` names the part that failed (`sink`,
 * `write`, `publish`, …); a package adds its own details (the sink's name, the event, the run).
 */
export interface InternalErrorContext {
  /** The part that failed, a short stable word. */
  readonly where: string;
  /** The run it happened in, when known. */
  readonly runId?: string;
}

/**
 * The one callback for failures headway survives instead of throwing at its caller (a sink that
 * threw, a closed stream, a bus that rejected): every option that takes one is called
 * `onInternalError` and has this shape. Errors it throws are ignored.
 *
 * @example
 * ```ts
 * const hub = createProgressHub({ runId: 'r', onInternalError: (error, { where }) => console.warn(where, error) });
 * ```
 */
export type OnInternalError<C extends InternalErrorContext = InternalErrorContext> = (error: unknown, context: C) => void;
