// Writes dist/schema.json (exported as @headway/protocol/schema.json) from the built package.
import { writeFileSync } from 'node:fs';
import { progressEventJsonSchema } from '../dist/index.js';

writeFileSync(new URL('../dist/schema.json', import.meta.url), `${JSON.stringify(progressEventJsonSchema(), null, 2)}\n`);
