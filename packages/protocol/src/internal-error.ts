/**
 * Where a failure that headway survived happened: `where` names the part that failed, one of the
 * places the reporting package lists in its own union (`Where`: the hub's `'sink'`, runtime's
 * `RuntimeErrorWhere`, …); a package adds its own details (the sink's name, the event, the run).
 *
 * @typeParam Where - The places the package reports, a union of string literals.
 */
export interface InternalErrorContext<Where extends string = string> {
  /** The part that failed, a short stable word from the package's union. */
  readonly where: Where;
  /** The run it happened in, when known. */
  readonly runId?: string;
}

/**
 * The one callback for failures headway survives instead of throwing at its caller (a sink that
 * threw, a closed stream, a bus that rejected): every option that takes one is called
 * `onInternalError` and has this shape, with the package's own context type `C` (its `where`
 * narrowed to the places it reports). Errors it throws are ignored.
 *
 * @typeParam C - The package's context type, e.g. `SinkErrorContext` (`where: 'sink'`).
 * @example
 * ```ts
 * const hub = createProgressHub({ runId: 'r', onInternalError: (error, { where }) => console.warn(where, error) });
 * ```
 */
export type OnInternalError<C extends InternalErrorContext> = (error: unknown, context: C) => void;
