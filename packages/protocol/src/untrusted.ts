/**
 * Helpers for values headway does not control: thrown values, sink and tool return values.
 * A getter may throw, a proxy may be revoked, a thenable may lie; none of that may escape here.
 */

const DEFAULT_MAX_LENGTH = 2000;

function clip(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength)}… (${String(text.length - maxLength)} more characters)` : text;
}

function tryRead(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * A one-line description of any thrown value that never throws itself.
 *
 * Why: `String(error)`, `error.message` and `JSON.stringify(error)` all run code the thrower
 * controls (getters, `toString`, `toJSON`, proxy traps). This reads own data only, inside
 * try/catch, and bounds the result to `maxLength` characters.
 */
export function describeThrown(value: unknown, maxLength: number = DEFAULT_MAX_LENGTH): string {
  try {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'string':
        return clip(value, maxLength);
      case 'number':
      case 'boolean':
      case 'bigint':
        return String(value);
      case 'undefined':
        return 'undefined';
      case 'symbol':
        return (tryRead(() => value.toString()) as string | undefined) ?? 'Symbol()';
      case 'function': {
        const name = tryRead(() => (value as { name?: unknown }).name);
        return typeof name === 'string' && name !== '' ? `[function ${clip(name, 200)}]` : '[function]';
      }
      default:
        break;
    }
    const message = tryRead(() => (value as { message?: unknown }).message);
    const name = tryRead(() => (value as { name?: unknown }).name);
    if (typeof message === 'string') {
      const prefix = typeof name === 'string' && name !== '' && name !== 'Error' ? `${clip(name, 200)}: ` : '';
      return clip(`${prefix}${message}`, maxLength);
    }
    const isArray = tryRead(() => Array.isArray(value));
    if (isArray === undefined) return '[unreadable object]';
    return isArray === true ? '[array]' : '[object]';
  } catch {
    return '[unreadable value]';
  }
}

/** The `message` of an Error-like value, or a safe description of anything else. */
export function errorMessage(value: unknown, maxLength: number = DEFAULT_MAX_LENGTH): string {
  const message = tryRead(() => (value as { message?: unknown } | null)?.message);
  return typeof message === 'string' ? clip(message, maxLength) : describeThrown(value, maxLength);
}

/**
 * The value's `then` function when it is a thenable, read once and safely (a throwing getter or a
 * revoked proxy counts as "not a thenable").
 */
function thenOf(value: unknown): ((this: unknown, ...args: unknown[]) => unknown) | undefined {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return undefined;
  const then = tryRead(() => (value as { then?: unknown }).then);
  return typeof then === 'function' ? (then as (this: unknown, ...args: unknown[]) => unknown) : undefined;
}

/** Whether `value` has a callable `then` (read safely: a throwing getter is "no"). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return thenOf(value) !== undefined;
}

/**
 * A real promise for a value that may be a hostile thenable, or `undefined` when it is not one.
 *
 * Why: awaiting a foreign thenable calls its `then` synchronously inside our code; a `then` that
 * throws, calls back twice or never calls back must become an ordinary rejection or pending
 * promise, never an exception in the caller.
 */
export function adoptThenable(value: unknown): Promise<unknown> | undefined {
  const then = thenOf(value);
  if (then === undefined) return undefined;
  return new Promise<unknown>((resolve, reject) => {
    try {
      then.call(value, resolve, reject);
    } catch (error) {
      // A thrown value is passed on as it is: the caller describes it with describeThrown.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      reject(error);
    }
  });
}
