// Who may change things on the server: only the dashboard's own page. A state-changing request
// (starting or continuing a run) must come from the page's origin (the browser's Origin and
// Sec-Fetch-Site say so; another site cannot forge them) and carry the token the server wrote
// into the page it served (another site cannot read it), as JSON (a plain form cannot send it).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header the page sends its token in. */
const PAGE_TOKEN_HEADER = 'x-headway-page-token';

/** The `<meta name>` the token is written under in the served page. */
const PAGE_TOKEN_META = 'headway-page-token';

/**
 * The Content-Security-Policy of the served page: its own scripts, styles and connections only,
 * no inline script or handler, no plugin, no framing, no `<base>` rewrite.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Options of {@link createRequestGuard}. */
export interface RequestGuardOptions {
  /** Page tokens remembered at once; the oldest is forgotten first (default 256). */
  maxTokens?: number;
  /** Makes a token (default 24 random bytes, base64url). */
  generateToken?: () => string;
}

/** Issues page tokens and checks state-changing requests against them. */
export interface RequestGuard {
  /** A new token for a page about to be served. */
  issue(): string;
  /** Why `req` is refused (for a 403), or `undefined` when it may go on. */
  refusal(req: IncomingMessage): string | undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Creates a {@link RequestGuard}: same origin, a token of a page this server served, a JSON body. */
export function createRequestGuard(options: RequestGuardOptions = {}): RequestGuard {
  const maxTokens = options.maxTokens ?? 256;
  const generate = options.generateToken ?? (() => randomBytes(24).toString('base64url'));
  const tokens = new Set<string>();
  return {
    issue() {
      const token = generate();
      tokens.add(token);
      for (const old of tokens) {
        if (tokens.size <= maxTokens) break;
        tokens.delete(old);
      }
      return token;
    },
    refusal(req) {
      const origin = header(req, 'origin');
      const host = header(req, 'host');
      if (origin === undefined || host === undefined) return 'cross-origin request refused: no Origin header';
      let originHost: string;
      try {
        const url = new URL(origin);
        originHost = url.protocol === 'http:' || url.protocol === 'https:' ? url.host : '';
      } catch {
        originHost = '';
      }
      if (originHost !== host) return `cross-origin request refused: Origin ${JSON.stringify(origin.slice(0, 200))} is not this server`;
      const site = header(req, 'sec-fetch-site');
      if (site !== undefined && site !== 'same-origin')
        return `cross-origin request refused: Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 50))}`;
      const token = header(req, PAGE_TOKEN_HEADER);
      if (token === undefined || !tokens.has(token)) return `request refused: no valid ${PAGE_TOKEN_HEADER} (reload the page)`;
      if (!/^application\/json\s*(?:;|$)/i.test(header(req, 'content-type') ?? ''))
        return 'request refused: the body must be application/json';
      return undefined;
    },
  };
}

/** The page with its token written in, as `<meta name="headway-page-token">` before `</head>`. */
export function withPageToken(html: string, token: string): string {
  const meta = `<meta name="${PAGE_TOKEN_META}" content="${token.replace(/[^\w-]/g, '')}" />`;
  const at = html.indexOf('</head>');
  return at === -1 ? `${meta}${html}` : `${html.slice(0, at)}${meta}${html.slice(at)}`;
}
