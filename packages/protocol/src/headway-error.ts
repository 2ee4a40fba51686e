// A registry symbol survives duplicate copies of the package, where `instanceof` does not.
const BRAND = Symbol.for('@headway/error');

/** One problem found while validating input: where it is and what is wrong. */
export interface ValidationIssue {
  /** Dotted path into the input, e.g. `report.stats.iterations` or `args[0]`; empty for the root. */
  readonly path: string;
  readonly message: string;
}

/**
 * Options of a {@link HeadwayError}: the standard `cause`, and the validation problems found.
 * A package's error class extends this with its details (`location`, `status`, …): every other
 * key becomes a property of the error.
 */
export interface HeadwayErrorOptions extends ErrorOptions {
  issues?: readonly ValidationIssue[];
}

/**
 * Base class of every error headway throws, with a stable machine-readable `code`.
 *
 * A package's error class names its codes and its options and inherits the constructor
 * `new XError(code, message, { issues?, cause?, ...details })`: the code is checked against the
 * union at `new`, and each detail becomes a property (declare it with `declare readonly`).
 *
 * Recognise errors with {@link HeadwayError.isInstance} (or by `code`) rather than
 * `instanceof`: two copies of a package in one program make `instanceof` lie.
 *
 * @example
 * ```ts
 * try { parseProgressEvent(input) } catch (e) {
 *   if (HeadwayError.isInstance(e, 'PROTOCOL_INVALID_EVENT')) console.warn(e.message);
 * }
 * ```
 *
 * @example A package's error class
 * ```ts
 * export type CostErrorCode = 'COST_INVALID_PRICE' | 'COST_INVALID_USAGE';
 * export class CostError extends HeadwayError<CostErrorCode> {
 *   override readonly name: string = 'CostError';
 * }
 * ```
 */
export class HeadwayError<C extends string = string, O extends HeadwayErrorOptions = HeadwayErrorOptions> extends Error {
  /** Stable identifier of the failure, e.g. `PROTOCOL_INVALID_EVENT`. */
  readonly code: C;
  /** Every problem found when the error is about invalid input, in input order; otherwise empty. */
  readonly issues: readonly ValidationIssue[];

  constructor(code: C, message: string, options?: O) {
    const { issues = [], cause, ...details } = options ?? {};
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, details);
    this.code = code;
    this.issues = issues;
    this.name = 'HeadwayError';
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * True for any headway error (from any copy of the package), optionally with the given code.
   * Safe on hostile values: a revoked proxy or a throwing getter is "no".
   */
  static isInstance<C extends string = string>(value: unknown, code?: C): value is HeadwayError<C> {
    if (typeof value !== 'object' || value === null) return false;
    try {
      if ((value as Record<symbol, unknown>)[BRAND] !== true) return false;
      return code === undefined || (value as HeadwayError).code === code;
    } catch {
      return false;
    }
  }
}
