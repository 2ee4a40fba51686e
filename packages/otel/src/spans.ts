import { SpanStatusCode, type Attributes, type Link, type Span, type SpanKind, type SpanOptions } from '@opentelemetry/api';
import { redactString } from '@headway/protocol';
import { hrTime } from './hr-time.js';
import { GEN_AI } from './names.js';

const ERROR_STATUS_MAX = 500;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Error text for a span status: redacted (it may quote a URL or a header) and bounded, even with content capture off. */
export function errorText(text: string): string {
  return clip(redactString(clip(text, ERROR_STATUS_MAX + 256)), ERROR_STATUS_MAX);
}

/** Span options with the start time of an event's `ts` (left to the SDK when it is not a time). */
export function options(kind: SpanKind, attributes: Attributes, ms: number, links?: Link[]): SpanOptions {
  const startTime = hrTime(ms);
  const result: SpanOptions = { kind, attributes };
  if (startTime !== undefined) result.startTime = startTime;
  if (links !== undefined && links.length > 0) result.links = links;
  return result;
}

/** Ends a span that did not finish: ERROR status with the reason, `error.type=interrupted`. */
export function endInterrupted(span: Span, reason: string, ts: number | undefined): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
  span.setAttribute(GEN_AI.errorType, 'interrupted');
  span.end(ts === undefined ? undefined : hrTime(ts));
}
