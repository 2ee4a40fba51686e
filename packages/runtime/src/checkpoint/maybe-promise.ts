/** A value, or a promise of it: SQLite and memory stores answer synchronously, network stores asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/** Applies `fn` to a value or to what a promise resolves to: synchronous stays synchronous. */
export function mapMaybe<T, U>(value: MaybePromise<T>, fn: (value: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
