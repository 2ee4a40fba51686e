import { SseError } from './sse-error.js';

/** Cross-origin access to the event stream: an exact list of origins, never a pattern. */
export interface CorsOptions {
  /**
   * Origins allowed to read the stream, exactly as browsers send them
   * (`https://app.example.com`, no path or trailing slash). `'*'` allows any origin and is
   * refused together with `credentials`.
   */
  origins: readonly string[];
  /** Lets the browser send cookies / HTTP auth (`EventSource` with `withCredentials`). */
  credentials?: boolean;
  /** How long a browser may cache a preflight answer (default 600 s). */
  maxAgeSeconds?: number;
}

/** The CORS answers for one origin, computed from validated {@link CorsOptions}. */
export interface CompiledCors {
  /** Headers for an actual request from `origin` (only `Vary` when it is not allowed). */
  headersFor(origin: string | undefined): Record<string, string>;
  /** Headers answering a preflight from `origin`, or `undefined` when it is not allowed. */
  preflight(origin: string | undefined): Record<string, string> | undefined;
}

/**
 * Validates CORS options and returns the header computation.
 *
 * @throws {SseError} `SSE_INVALID_OPTIONS` for an origin that is not exactly an origin,
 * or `'*'` together with `credentials`.
 */
export function compileCors(options: CorsOptions): CompiledCors {
  const credentials = options.credentials === true;
  const maxAge = options.maxAgeSeconds ?? 600;
  let any = false;
  const allowed = new Set<string>();
  for (const [index, origin] of options.origins.entries()) {
    if (origin === '*') {
      if (credentials) {
        throw new SseError('SSE_INVALID_OPTIONS', `cors.origins[${index}]: '*' cannot be combined with credentials; list the origins`);
      }
      any = true;
      continue;
    }
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin || parsed === 'null') {
      throw new SseError(
        'SSE_INVALID_OPTIONS',
        `cors.origins[${index}]: ${JSON.stringify(origin)} is not an origin (expected scheme://host[:port], e.g. "https://app.example.com")`,
      );
    }
    allowed.add(origin);
  }

  function headersFor(origin: string | undefined): Record<string, string> {
    if (any) return { 'access-control-allow-origin': '*' };
    if (origin === undefined || !allowed.has(origin)) return { vary: 'Origin' };
    const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (credentials) headers['access-control-allow-credentials'] = 'true';
    return headers;
  }

  return {
    headersFor,
    preflight(origin) {
      if (!any && (origin === undefined || !allowed.has(origin))) return undefined;
      return {
        ...headersFor(origin),
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'Last-Event-ID, Cache-Control, Authorization',
        'access-control-max-age': String(maxAge),
      };
    },
  };
}
