import { inspect } from 'node:util';
import { HeadwayError, type HeadwayErrorOptions, type ValidationIssue } from './headway-error.js';

/** Everything a user can see of an error, as plain data a test can compare with `toEqual`. */
export interface ErrorSnapshot {
  /** The class's name, from `constructor.name`. */
  readonly constructorName: string;
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly issues: readonly ValidationIssue[];
  /** Whether the error has its own `cause`, and what it is. */
  readonly hasCause: boolean;
  readonly cause: unknown;
  /** `HeadwayError.isInstance(error, error.code)`. */
  readonly isInstance: boolean;
  /** The first line of `stack`, e.g. `CostError: price is negative`. */
  readonly stackHead: string;
  /** The first line of `util.inspect(error)`, as a console shows it. */
  readonly inspectHead: string;
  /** The error's own enumerable properties: `name`, `code`, `issues` and the class's details. */
  readonly properties: Readonly<Record<string, unknown>>;
}

/** A headway error class: `new XError(code, message, { issues?, cause?, ...details })`. */
export type HeadwayErrorClass<C extends string> = new (code: C, message: string, options?: HeadwayErrorOptions) => HeadwayError<C>;

/**
 * Snapshot of `error` for tests: what a user sees of it (name, code, message, issues, cause,
 * stack and console lines, own properties), as plain data.
 */
export function errorSnapshot(error: HeadwayError): ErrorSnapshot {
  return {
    constructorName: error.constructor.name,
    name: error.name,
    code: error.code,
    message: error.message,
    issues: error.issues,
    hasCause: Object.hasOwn(error, 'cause'),
    cause: error.cause,
    isInstance: HeadwayError.isInstance(error, error.code),
    stackHead: firstLine(error.stack),
    inspectHead: firstLine(inspect(error)),
    properties: Object.fromEntries(Object.entries(error)),
  };
}

/**
 * Builds an error of `ErrorClass` with `code`, the message `something failed`, one issue and a
 * cause given in its options, and snapshots it.
 *
 * @example
 * ```ts
 * const snapshot = errorOptionsSnapshot(CostError, 'COST_INVALID_PRICE');
 * expect(snapshot).toMatchObject({ name: 'CostError', hasCause: true });
 * ```
 */
export function errorOptionsSnapshot<C extends string>(ErrorClass: HeadwayErrorClass<C>, code: C): ErrorSnapshot {
  const issues: readonly ValidationIssue[] = [{ path: 'items[0].price', message: 'expected a number >= 0' }];
  const cause = new Error('the cause');
  return errorSnapshot(new ErrorClass(code, 'something failed', { issues, cause }));
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n', 1)[0] ?? '';
}
