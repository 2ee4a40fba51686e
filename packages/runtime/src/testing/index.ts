/**
 * What you test your own code against a headway agent with, without vitest: a scripted model
 * (`ScriptedProvider`), a scripted vendor API over HTTP (`ScriptedServer`), the recording clock,
 * and a helper that drains a run's event stream. Importing it loads no test runner, so a demo
 * script can use it as well as a test. The store conformance suites and the crash suite, which
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
// The test clock is protocol's; re-exported here beside the scripted server it is used with.
export { createRecordingClock } from '@headway/protocol/testing';
// eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated aliases, removed in the next minor
export { recordingClock } from '@headway/protocol/testing';
