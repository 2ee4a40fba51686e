import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { errorMessage } from '@headway/protocol/internal';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { RE2JS } from 're2js';
import { z } from 'zod';

/** Checks a value against a JSON Schema; returns what is wrong, empty when valid. Never throws. */
export type ArgumentsCheck = (value: unknown) => string[];

/** Told about a `pattern` (or `patternProperties` key) that is left unchecked, and why. */
export type UncheckedPattern = (pattern: string, reason: string) => void;

/** What ajv calls a regular expression: `test`, and a `toString` ajv caches compiled patterns by. */
interface RegExpLike {
  test(text: string): boolean;
  toString(): string;
}

/**
 * A server's tool schema is untrusted: a `pattern` such as `^(a+)+$` makes a backtracking
 * engine take minutes on 34 characters of model arguments, blocking the event loop. Patterns
 * run on RE2 (`re2js`), which matches in time linear in the input. One RE2 cannot run
 * (backreferences, lookarounds) is left unchecked — the server still checks its own input —
 * and `onUnchecked` says so.
 */
function linearRegExp(onUnchecked: UncheckedPattern): ((pattern: string, flags: string) => RegExpLike) & { code: string } {
  const engine = (pattern: string, flags: string): RegExpLike => {
    // ajv keeps one compiled pattern per `toString()`: it must differ between patterns.
    const toString = (): string => `/${pattern}/${flags}`;
    try {
      const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
      return { test: (text) => re.test(text), toString };
    } catch (error) {
      onUnchecked(pattern, errorMessage(error));
      return { test: () => true, toString };
    }
  };
  // Only read when ajv generates standalone code, which this package never asks for.
  return Object.assign(engine, { code: 're2js' });
}

/**
 * A validator for server-supplied schemas: the MCP SDK's own (ajv, with its formats and
 * settings), but with every pattern run in linear time (see {@link linearRegExp}).
 */
export function createSchemaValidator(onUnchecked: UncheckedPattern): AjvJsonSchemaValidator {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp(onUnchecked) },
  });
  addFormatsModule.default(ajv);
  return new AjvJsonSchemaValidator(ajv);
}

/**
 * Compiles a tool's JSON Schema into a check, with the validator the MCP SDK ships (ajv), so the
 * arguments a model writes are checked before they reach the server.
 *
 * @throws whatever the validator throws for a schema it cannot compile; the caller names the tool.
 */
export function compileArgumentsCheck(schema: Record<string, unknown>, validator: AjvJsonSchemaValidator): ArgumentsCheck {
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
