/**
 * One parser or redactor on its worst known input, for the growth check in `run.ts`.
 * Drop a file into `cases/` that exports `cases: AdversarialCase[]`; the runner finds it.
 */
export interface AdversarialCase {
  /** `package: function — input`, e.g. `estimator: parseWorkflow — heading of spaces`. */
  name: string;
  /** The worst known input of about `n` bytes (built outside the timing). */
  make(n: number): unknown;
  /** Runs the parser on the input; a typed error it throws counts as an answer, not a failure. */
  run(input: unknown): unknown;
}
