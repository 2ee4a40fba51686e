// Your own reporters, as a user writes them: run with
//   npm start --prefix examples/custom-reporter [-- --webhook http://127.0.0.1:8787/hook [--webhook-timeout-ms 2000]]
import { parseArgs } from 'node:util';
import { isProgressReporter } from '@headway/protocol';
import { AgentRuntime, defineTool } from '@headway/runtime';
import { ScriptedProvider } from '@headway/runtime/testing';
import { z } from 'zod';
import { JsonLinesReporter } from './jsonl-reporter.js';
import { WebhookReporter } from './webhook-reporter.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: { webhook: { type: 'string' }, 'webhook-timeout-ms': { type: 'string' } },
});
const webhookTimeoutMs = values['webhook-timeout-ms'] === undefined ? undefined : Number(values['webhook-timeout-ms']);
if (webhookTimeoutMs !== undefined && !(Number.isInteger(webhookTimeoutMs) && webhookTimeoutMs > 0)) {
  console.error(`--webhook-timeout-ms takes a whole number of milliseconds above 0, not "${String(values['webhook-timeout-ms'])}"`);
  process.exit(2);
}

const reporter = new JsonLinesReporter(process.stdout);
// Structural typing: no base class, no registration — just the seven methods.
if (!isProgressReporter(reporter)) throw new Error('JsonLinesReporter is missing a reporter method');

const webhook =
  values.webhook === undefined
    ? undefined
    : new WebhookReporter({ url: values.webhook, ...(webhookTimeoutMs === undefined ? {} : { timeoutMs: webhookTimeoutMs }) });

const weather = defineTool({
  name: 'weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  safe: true,
  execute: ({ city }) => ({ city, tempC: city === 'Lisbon' ? 19 : 7, sky: 'clear' }),
});

const runtime = new AgentRuntime(
  { provider: 'scripted', agentName: 'weather-agent', maxIterations: 5 },
  {
    provider: new ScriptedProvider([
      {
        toolCalls: [
          { name: 'weather', args: { city: 'Lisbon' } },
          { name: 'weather', args: { city: 'Oslo' } },
        ],
      },
      { content: 'Lisbon is 19 °C and clear; Oslo is 7 °C and clear. Lisbon is warmer by 12 °C.' },
    ]),
    tools: [weather],
    progressReporter: reporter,
    ...(webhook === undefined ? {} : { sinks: [webhook] }),
  },
);

const result = await runtime.run('Which is warmer right now, Lisbon or Oslo?');
await webhook?.settle();
process.stderr.write(`${result.text}\n`);
if (webhook !== undefined && webhook.failures.length > 0) process.stderr.write(`webhook failures: ${webhook.failures.join('; ')}\n`);
