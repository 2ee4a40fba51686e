import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProgressEvent, ProgressSink, TerminalEvent } from '@headway/protocol';
import type { Server } from 'socket.io';
import { describe, expectTypeOf, it } from 'vitest';
import * as browser from './browser.js';
import * as client from './client.js';
import { createSocketIoSink, subscribeToRun, type AuthorizeResult, type SocketIoTarget, type SseHandler } from './index.js';

describe('public types', () => {
  it('takes a socket.io server, namespace or room as a target, and is a progress sink', () => {
    expectTypeOf<Server>().toExtend<SocketIoTarget>();
    expectTypeOf<ReturnType<Server['of']>>().toExtend<SocketIoTarget>();
    expectTypeOf<ReturnType<ReturnType<Server['of']>['to']>>().toExtend<SocketIoTarget>();
    expectTypeOf(createSocketIoSink).returns.toEqualTypeOf<ProgressSink>();
  });

  it('gives both clients the same call shape, resolving with the terminal event', () => {
    expectTypeOf(subscribeToRun).returns.toEqualTypeOf<Promise<TerminalEvent | undefined>>();
    expectTypeOf(client.subscribeToRun).toEqualTypeOf(subscribeToRun);
    expectTypeOf(browser.subscribeToRun).returns.toEqualTypeOf<Promise<TerminalEvent>>();
    expectTypeOf(browser.subscribeToRun).parameter(1).toHaveProperty('onEvent').toEqualTypeOf<(event: ProgressEvent) => void>();
  });

  it('lets authorize answer allow, deny, or ask for credentials, and serves node:http', () => {
    expectTypeOf<true | false | 401 | 403>().toEqualTypeOf<AuthorizeResult>();
    expectTypeOf<SseHandler>().parameters.toEqualTypeOf<[IncomingMessage, ServerResponse]>();
  });
});
