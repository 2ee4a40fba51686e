import { Writable } from 'node:stream';

/** A stream that accepts and discards every write, like /dev/null without the syscall. */
export function discardStream(): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
}
