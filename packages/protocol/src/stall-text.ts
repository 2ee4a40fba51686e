import type { StallDetectedEvent } from './events.js';
import { formatCount, oneLine } from './report-markdown/text.js';

/**
 * What a stall is, as one line for people (every reporter shows it after `stuck? `):
 * `ls src/work 5× with the same result`, `npm test failed 4× the same way`,
 * `read_file a.ts ↔ write_file a.ts 4× with unchanged results`,
 * `no new result or plan item in 15 iterations`, `the same text 3× in a row: "…"`.
 */
export function describeStall(stall: Pick<StallDetectedEvent, 'kind' | 'evidence'>): string {
  const subject = oneLine(stall.evidence.subject);
  const times = `${formatCount(stall.evidence.repeats)}×`;
  switch (stall.kind) {
    case 'repeated-call':
      return `${subject} ${times} with the same result`;
    case 'repeated-failure':
      return `${subject} failed ${times} the same way`;
    case 'ping-pong':
      return `${subject} ${times} with unchanged results`;
    case 'no-progress':
      return `no new result or plan item in ${formatCount(stall.evidence.repeats)} iterations`;
    case 'repeated-text':
      return `the same text ${times} in a row: ${subject}`;
  }
}
