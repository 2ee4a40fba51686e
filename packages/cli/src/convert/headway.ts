import { parseProgressEvent, type ProgressEvent } from '@headway/protocol';

/** A headway event line (what `@headway/reporter-json` and `headway convert` write), validated; undefined when it is not one. */
export function readHeadwayEvent(value: unknown): ProgressEvent | undefined {
  try {
    return parseProgressEvent(value);
  } catch {
    return undefined;
  }
}
