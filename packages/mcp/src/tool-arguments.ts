import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { errorMessage } from '@headway/protocol/internal';
import { z } from 'zod';

/** Checks a value against a JSON Schema; returns what is wrong, empty when valid. Never throws. */
export type ArgumentsCheck = (value: unknown) => string[];

/**
 * Compiles a tool's JSON Schema into a check, with the validator the MCP SDK ships (ajv), so the
 * arguments a model writes are checked before they reach the server.
 *
 * @throws whatever the validator throws for a schema it cannot compile; the caller names the tool.
 */
export function compileArgumentsCheck(
  schema: Record<string, unknown>,
  validator: AjvJsonSchemaValidator = new AjvJsonSchemaValidator(),
): ArgumentsCheck {
  const validate = validator.getValidator(schema);
  return (value) => {
    try {
      // Inside the try: even Array.isArray throws on a revoked proxy.
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['expected an object of arguments'];
      const result = validate(value);
      return result.valid ? [] : [result.errorMessage];
    } catch (error) {
      // A revoked proxy or a throwing getter in the value: unreadable, so invalid.
      return [`the arguments could not be read: ${errorMessage(error)}`];
    }
  };
}

/** A zod schema that defers to a JSON Schema check: what a runtime tool's `parameters` needs. */
export function argumentsSchema(check: ArgumentsCheck): z.ZodType<Record<string, unknown>> {
  return z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    for (const message of check(value)) ctx.addIssue({ code: 'custom', message });
  });
}
