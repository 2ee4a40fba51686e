/**
 * Which names (object keys, the `NAME` of `NAME=value` text) hold a secret.
 *
 * A name matches by fragment, case-insensitive, with any prefix or suffix: `DB_PASSWORD`, `POSTGRES_PASSWORD`,
 * `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `openai_api_key`, `x-api-key`, `clientSecret`.
 * `token` followed by what counts or splits tokens (`tokenCount`, `max_tokens`, `tokenizer`)
 * is usage, not a secret: those names stay readable.
 */

/**
 * Matched against the lower-cased name. Every fragment is a literal (an optional separator
 * at most) and the lookahead is bounded, so this is one linear pass. Each fragment contains
 * one of `mayContainSecret`'s fragments, which keeps that prefilter a superset.
 */
const SECRET_FRAGMENT =
  /passw|secret|token(?![-_.\s]?(?:s|count|ize|type|limit|usage|budget))|api[-_.\s]?key|private[-_.\s]?key|credential|access[-_.\s]?key/;

/** Object keys that hold a secret without any fragment above (compared without `-`, `_`, `.`, spaces). */
const SECRET_KEY_NAMES: ReadonlySet<string> = new Set(['pwd', 'authorization', 'proxyauthorization', 'cookie', 'setcookie']);

/**
 * `NAME=value` names that hold a secret without any fragment above. `Authorization: Bearer …`
 * text is left to the bearer detector, which keeps the scheme readable.
 */
const SECRET_TEXT_NAMES: ReadonlySet<string> = new Set(['pwd']);

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/** Whether an object key names a secret (its value is replaced whole). */
export function isSecretKey(key: string): boolean {
  return SECRET_FRAGMENT.test(key.toLowerCase()) || SECRET_KEY_NAMES.has(normalise(key));
}

/** Whether the `NAME` of `NAME=value` / `NAME: value` text names a secret. */
export function isSecretName(text: string): boolean {
  return SECRET_FRAGMENT.test(text.toLowerCase()) || SECRET_TEXT_NAMES.has(normalise(text));
}
