import type { HrTime } from '@opentelemetry/api';

/**
 * An event's `ts` (epoch ms) as an OpenTelemetry HrTime, or undefined for a value that is not
 * a time. Why not pass the number: the SDK reads a number below the process's time origin as
 * `performance.now()`-relative, which would shift the spans of a run driven by a fake clock.
 */
export function hrTime(ms: number): HrTime | undefined {
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6));
  return [seconds, nanos];
}
