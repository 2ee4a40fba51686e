import { describe, expect, it } from 'vitest';
import { HeadwayError } from './headway-error.js';
import { ProtocolError } from './protocol-error.js';

describe('HeadwayError', () => {
  it('is recognised by brand and code, not by prototype', () => {
    const error = new ProtocolError('PROTOCOL_RUN_ENDED', 'ended');
    expect(HeadwayError.isInstance(error)).toBe(true);
    expect(HeadwayError.isInstance(error, 'PROTOCOL_RUN_ENDED')).toBe(true);
    expect(HeadwayError.isInstance(error, 'OTHER')).toBe(false);
    expect(HeadwayError.isInstance(new Error('x'))).toBe(false);
    expect(HeadwayError.isInstance({ code: 'PROTOCOL_RUN_ENDED' })).toBe(false);
    // A copy from another instance of the package carries the same registry symbol.
    const foreign = Object.assign(Object.create(Error.prototype) as Error, { code: 'X' });
    Object.defineProperty(foreign, Symbol.for('@headway/error'), { value: true });
    expect(HeadwayError.isInstance(foreign, 'X')).toBe(true);
    expect(error.name).toBe('ProtocolError');
    expect(error.issues).toEqual([]);
    const invalid = new HeadwayError('X_INVALID', 'bad', { issues: [{ path: 'a.b', message: 'expected a number' }], cause: 'why' });
    expect(invalid.issues).toEqual([{ path: 'a.b', message: 'expected a number' }]);
    expect(invalid.cause).toBe('why');
    expect(Object.keys(invalid)).not.toContain('cause');
  });
});
