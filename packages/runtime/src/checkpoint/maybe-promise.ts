import type { MaybePromise } from './checkpoint-store.js';

/** Applies `fn` to a value or to what a promise resolves to: synchronous stays synchronous. */
export function mapMaybe<T, U>(value: MaybePromise<T>, fn: (value: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
