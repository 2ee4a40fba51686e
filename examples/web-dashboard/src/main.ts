// The web dashboard: `npm start --prefix examples/web-dashboard` builds the page and
// serves it on http://127.0.0.1:5178/ (or --port / PORT).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startDashboardServer } from './server.js';

const usage = 'usage: web-dashboard [--port N] [--model-delay MS] [--tool-delay MS] [--openai-model NAME]';

function fail(message: string): never {
  process.stderr.write(`web-dashboard: ${message}\n${usage}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
    args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
    options: {
      port: { type: 'string', default: process.env.PORT ?? '5178' },
      'model-delay': { type: 'string', default: '600' },
      'tool-delay': { type: 'string', default: '400' },
      'openai-model': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help === true) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
function wholeNumber(name: string, text: string, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > max) fail(`--${name}: expected a whole number from 0 to ${max}, got ${JSON.stringify(text)}`);
  return n;
}
const port = wholeNumber('port', values.port, 65_535);
const server = await startDashboardServer({
  pageDir: resolve(import.meta.dirname, '..', 'dist', 'page'),
  port,
  modelDelayMs: wholeNumber('model-delay', values['model-delay'], 60_000),
  toolDelayMs: wholeNumber('tool-delay', values['tool-delay'], 60_000),
  ...(values['openai-model'] === undefined ? {} : { openaiModel: values['openai-model'] }),
}).catch((error: unknown) => fail(`cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`));
process.stdout.write(`headway web dashboard: ${server.url}\n`);

let closing = false;
const shutdown = (): void => {
  if (closing) process.exit(130);
  closing = true;
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
