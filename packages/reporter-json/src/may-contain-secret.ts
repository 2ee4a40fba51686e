/**
 * A cheap superset of protocol's secret detectors: every detector of `redactString` needs
 * one of these fragments (same case folding, as the detectors that ignore case), so a
 * string that matches none of them is returned unchanged by `redactString` and need not
 * be scanned by its ten expressions. Keep in step with `@headway/protocol`'s detectors;
 * may-contain-secret.test.ts checks each detector and the superset property.
 */
const FRAGMENTS =
  /-----begin|bearer|basic|token|sk-|akia|asia|agpa|aida|aroa|anpa|anva|aipa|gh[pousr]_|github_pat_|xox|aiza|eyj|:\/\/|passw|pwd|secret|key/i;

/** False only when `text` certainly holds no secret-shaped substring. */
export function mayContainSecret(text: string): boolean {
  return FRAGMENTS.test(text);
}
