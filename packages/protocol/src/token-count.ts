import { z } from 'zod';

/**
 * A token count a model call can be priced from: a non-negative safe integer. NaN, negative,
 * fractional or infinite counts would price a call at $0 (or less) and let a spending cap fail
 * open, so every cost check in headway (the runtime's provider answers, the AI SDK bridge's
 * steps) holds usage to this one rule.
 */
export const tokenCountSchema: z.ZodNumber = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * True when `value` is a token count by {@link tokenCountSchema}'s rule. Checked directly rather
 * than through the schema: a bridge asks this for every model call (token-count.test.ts holds the
 * two to the same answers).
 */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
