import { z } from 'zod';
import { progressEventSchema } from './events.js';

/**
 * The JSON Schema (draft 2020-12) of {@link ProgressEvent}, generated from the zod schema,
 * for consumers in other languages. The same document ships as
 * `@headway/protocol/schema.json`.
 */
export function progressEventJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(progressEventSchema, { target: 'draft-2020-12', unrepresentable: 'any' });
  return { ...schema, $id: 'headway-progress-event', title: 'headway ProgressEvent' };
}
