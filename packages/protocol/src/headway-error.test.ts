import { describe, expect, expectTypeOf, it } from 'vitest';
import { errorOptionsSnapshot, errorSnapshot } from './error-forms.js';
import { HeadwayError, type HeadwayErrorOptions } from './headway-error.js';
import { ProtocolError } from './protocol-error.js';

type DemoCode = 'DEMO_FAILED' | 'DEMO_INVALID';

interface DemoOptions extends HeadwayErrorOptions {
  where?: string;
}

class DemoError extends HeadwayError<DemoCode, DemoOptions> {
  override readonly name: string = 'DemoError';
  declare readonly where: string | undefined;
}

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

  it('builds an error with the issues and cause of its options', () => {
    const current = errorOptionsSnapshot(ProtocolError, 'PROTOCOL_INVALID_EVENT');
    expect(current).toMatchObject({
      message: 'something failed',
      issues: [{ path: 'items[0].price', message: 'expected a number >= 0' }],
      hasCause: true,
    });
    expect(current).toMatchObject({ name: 'ProtocolError', stackHead: 'ProtocolError: something failed', isInstance: true });
    expect(current.inspectHead).toBe('ProtocolError: something failed');
    expect(current.properties).toEqual({ name: 'ProtocolError', code: 'PROTOCOL_INVALID_EVENT', issues: current.issues });
    expect(errorOptionsSnapshot(HeadwayError, 'ANY_CODE').stackHead).toBe('HeadwayError: something failed');
  });

  it('makes every other option a property of the error, and leaves out a cause that is undefined', () => {
    const error = new DemoError('DEMO_FAILED', 'it failed', { where: 'parser', cause: undefined });
    expect(errorSnapshot(error)).toEqual({
      constructorName: 'DemoError',
      name: 'DemoError',
      code: 'DEMO_FAILED',
      message: 'it failed',
      issues: [],
      hasCause: false,
      cause: undefined,
      isInstance: true,
      stackHead: 'DemoError: it failed',
      inspectHead: 'DemoError: it failed',
      properties: { where: 'parser', code: 'DEMO_FAILED', issues: [], name: 'DemoError' },
    });
    expect(new DemoError('DEMO_INVALID', 'no details').where).toBeUndefined();
  });

  it('checks the code against the class union at `new`, and narrows by code', () => {
    // @ts-expect-error -- not a DemoCode
    expect(new DemoError('PROTOCOL_RUN_ENDED', 'x').code).toBe('PROTOCOL_RUN_ENDED');
    expectTypeOf(new DemoError('DEMO_FAILED', 'x').code).toEqualTypeOf<DemoCode>();
    const caught: unknown = new DemoError('DEMO_INVALID', 'x');
    if (HeadwayError.isInstance(caught, 'DEMO_INVALID')) expectTypeOf(caught.code).toEqualTypeOf<'DEMO_INVALID'>();
    else expect.unreachable();
  });
});
