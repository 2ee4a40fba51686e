/**
 * What you test your own code against a headway agent with, without vitest: a scripted model
 * (`ScriptedProvider`), a scripted vendor API over HTTP (`ScriptedServer`) and a helper that
 * drains a run's event stream. Importing it loads no test runner and no fast-check, so a demo
 * script can use it as well as a test (the recording clock is `@headway/protocol/testing`'s). The store conformance suites and the crash suite, which
 * need vitest, are `@headway/runtime/testing/conformance`.
 *
 * @example
 * ```ts
 * import { AgentRuntime } from '@headway/runtime';
 * import { ScriptedProvider } from '@headway/runtime/testing';
 * const provider = new ScriptedProvider([{ content: 'Done.' }]);
 * const result = await new AgentRuntime({ provider: 'scripted' }, { provider }).run('Say done');
 * ```
 *
 * @packageDocumentation
 */
export { ScriptedProvider } from '../provider/scripted-provider.js';
export type { Script, ScriptedProviderOptions, ScriptedStep } from '../provider/scripted-provider.js';
export { ScriptedServer, jsonReply, sseReply } from './scripted-server.js';
export type { ScriptedReply, ScriptedRequest, ScriptedServerOptions } from './scripted-server.js';
export { drainRunStream } from './drain-run-stream.js';
export type { DrainedRun } from './drain-run-stream.js';
