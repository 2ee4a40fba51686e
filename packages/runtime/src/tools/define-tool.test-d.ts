import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import type { RunResult } from '../loop/finish-run.js';
import type { AgentRuntime } from '../loop/agent-runtime.js';
import { defineTool, type Tool, type ToolContext } from './define-tool.js';
import type { ProgressEvent } from '@headway/protocol';

test('defineTool infers the arguments from the zod schema', () => {
  const tool = defineTool({
    name: 'search',
    description: 'search',
    parameters: z.object({ query: z.string(), limit: z.number().optional() }),
    execute: (args, ctx) => {
      expectTypeOf(args).toEqualTypeOf<{ query: string; limit?: number | undefined }>();
      expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
      return args.query.length;
    },
  });
  expectTypeOf(tool).toEqualTypeOf<Tool<{ query: string; limit?: number | undefined }, number>>();
  // Typed tools go into the runtime's untyped list without casts.
  expectTypeOf(tool).toExtend<Tool>();
});

test('run and runStream give the same result type', () => {
  type Stream = ReturnType<AgentRuntime['runStream']>;
  expectTypeOf<Awaited<ReturnType<AgentRuntime['run']>>>().toEqualTypeOf<RunResult>();
  expectTypeOf<Stream>().toEqualTypeOf<AsyncGenerator<ProgressEvent, RunResult, undefined>>();
  expectTypeOf<RunResult['status']>().toEqualTypeOf<'completed' | 'limit' | 'cancelled' | 'error'>();
});
