import { createRedactor, redactString, safeStringify, type RedactOptions } from '@headway/protocol';

/** What {@link OtelSinkOptions.captureContent} turns on, compiled once. */
export interface ContentCapture {
  /** Redacted text, cut to the length limit. */
  text(value: string): string;
  /** Redacted JSON of any value (never throws), cut to the length limit. */
  json(value: unknown): string;
  readonly maxLength: number;
}

function cut(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/**
 * Content capture with headway's redaction: secret-named keys and secret-shaped text become
 * `[REDACTED]`; with `false`, content is recorded as it is.
 */
export function contentCapture(maxLength: number, options: RedactOptions | false | undefined): ContentCapture {
  if (options === false) {
    return {
      maxLength,
      text: (value) => cut(value, maxLength),
      json: (value) => cut(safeStringify(value) ?? 'null', maxLength),
    };
  }
  const redactor = createRedactor(options);
  const censor = options?.censor ?? '[REDACTED]';
  return {
    maxLength,
    // Cut first so a huge text costs the redactor only `maxLength` (plus a little: a secret
    // straddling the cut is still caught by its shape in what is left).
    text: (value) => cut(redactString(cut(value, maxLength + 256), censor), maxLength),
    json: (value) => {
      let redacted: unknown;
      try {
        redacted = redactor(value);
      } catch {
        return '[unreadable]';
      }
      // redact() already censors secret-shaped text inside strings; the JSON stays valid.
      return cut(safeStringify(redacted) ?? 'null', maxLength);
    },
  };
}
