// npm start --prefix examples/ag-ui-page [-- --port N]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startAgUiPageServer } from './server.js';

const { values } = parseArgs({
  // pnpm hands its `--` separator on to the script (`pnpm -F … start -- --flag`): it is not an argument.
  args: process.argv.slice(process.argv[2] === '--' ? 3 : 2),
  options: { port: { type: 'string' } },
});
const server = await startAgUiPageServer({
  pageDir: resolve(import.meta.dirname, '../dist/page'),
  port: Number(values.port ?? process.env.PORT ?? 5179),
});
console.log(`AG-UI page: ${server.url}`);
