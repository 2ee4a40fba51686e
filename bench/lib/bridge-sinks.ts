// The two headway rows a bridge bench times next to its framework's plain loop: a NullReporter,
// and the CLI and JSON reporters writing to discarding streams.
import { NullReporter, type ProgressReporter } from '@headway/protocol';
import { CLIReporter } from '@headway/reporter-cli';
import { JSONReporter } from '@headway/reporter-json';
import { discardStream as devNull } from './discard-stream.js';

/** One row: its name, its bound (× the plain loop per step) and fresh sinks for each run. */
export interface BridgeSinkRow {
  readonly name: 'null' | 'cli+json';
  readonly bound: number;
  readonly sinks: () => ProgressReporter[];
}

/** `null` (≤ 1.1×) and `cli+json` (≤ 1.3×). */
export const BRIDGE_SINK_ROWS: readonly BridgeSinkRow[] = [
  { name: 'null', bound: 1.1, sinks: () => [new NullReporter()] },
  {
    name: 'cli+json',
    bound: 1.3,
    sinks: () => [new CLIReporter({ stream: devNull(), mode: 'plain' }), new JSONReporter({ stream: devNull() })],
  },
];
