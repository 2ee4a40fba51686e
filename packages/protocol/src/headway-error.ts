// A registry symbol survives duplicate copies of the package, where `instanceof` does not.
const BRAND = Symbol.for('@headway/error');

/** One problem found while validating input: where it is and what is wrong. */
export interface ValidationIssue {
  /** Dotted path into the input, e.g. `report.stats.iterations` or `args[0]`; empty for the root. */
  readonly path: string;
  readonly message: string;
}

/** Options of a {@link HeadwayError}: the standard `cause`, and the validation problems found. */
export interface HeadwayErrorOptions extends ErrorOptions {
  issues?: readonly ValidationIssue[];
}

/**
 * Base class of every error headway throws, with a stable machine-readable `code`.
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
 */
export class HeadwayError extends Error {
  /** Stable identifier of the failure, e.g. `PROTOCOL_INVALID_EVENT`. */
  readonly code: string;
  /** Every problem found when the error is about invalid input, in input order; otherwise empty. */
  readonly issues: readonly ValidationIssue[];

  constructor(code: string, message: string, options: HeadwayErrorOptions = {}) {
    const { issues = [], ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.issues = issues;
    this.name = 'HeadwayError';
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for any headway error (from any copy of the package), optionally with the given code. */
  static isInstance(value: unknown, code?: string): value is HeadwayError {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[BRAND] !== true) return false;
    return code === undefined || (value as HeadwayError).code === code;
  }
}

/**
 * The options of an error whose constructor still accepts the old `(code, message, issues,
 * options)` shape beside `(code, message, { issues?, cause? })`: the array form becomes
 * `{ ...options, issues }`. For headway's own error classes during the deprecation period.
 */
export function toErrorOptions(
  issuesOrOptions: readonly ValidationIssue[] | HeadwayErrorOptions | undefined,
  options?: ErrorOptions,
): HeadwayErrorOptions {
  if (issuesOrOptions === undefined) return { ...options };
  return isIssueList(issuesOrOptions) ? { ...options, issues: issuesOrOptions } : issuesOrOptions;
}

function isIssueList(value: readonly ValidationIssue[] | HeadwayErrorOptions): value is readonly ValidationIssue[] {
  return Array.isArray(value);
}
