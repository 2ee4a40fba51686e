import type { OnInternalError } from '@headway/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentRuntimeDeps } from './agent-runtime.js';
import type { AgentRuntimeErrorContext, RuntimeErrorWhere } from './internal-error-context.js';

type Where = Parameters<NonNullable<AgentRuntimeDeps['onInternalError']>>[1]['where'];

describe('RuntimeErrorWhere', () => {
  it("is what the runtime's onInternalError is told: the places it reports, never any string", () => {
    expectTypeOf<Where>().toEqualTypeOf<RuntimeErrorWhere>();
    expectTypeOf<'sink' | 'checkpoint.update' | 'onTimeout' | 'context.memory.afterRun'>().toExtend<Where>();
    expectTypeOf<string>().not.toExtend<Where>();
    expectTypeOf<'context.memory.onSomething'>().not.toExtend<Where>();
    expectTypeOf<OnInternalError<AgentRuntimeErrorContext>>().toEqualTypeOf<NonNullable<AgentRuntimeDeps['onInternalError']>>();
  });
});
