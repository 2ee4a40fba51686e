// Refits ETA_CALIBRATION (packages/estimator/src/eta-calibration.ts) on every recorded run of
// both trace folders (or HEADWAY_TRACES) and prints the table to paste there. The `history` bins
// replay each run with the history of the other groups' runs.
// Run: pnpm -F @headway/bench bench:estimator:refit
import { fitEtaCalibration, otherGroupsHistory } from './eta-fit.js';
import { loadRealTraces, tracesDirs } from './traces.js';

const traces = tracesDirs().flatMap((dir) => loadRealTraces(dir));
const table = fitEtaCalibration(traces, { plan: true, historyFor: otherGroupsHistory(traces) });
const bins = (list: typeof table.plan): string =>
  `[\n${list.map((b) => `    { belowPercent: ${b.belowPercent}, low: ${b.low}, mid: ${b.mid}, high: ${b.high} },`).join('\n')}\n  ]`;
console.log(
  `// ${traces.length} runs\nexport const ETA_CALIBRATION: EtaCalibration = {\n  plan: ${bins(table.plan)},\n  iterations: ${bins(table.iterations)},\n  history: ${bins(table.history ?? [])},\n  finishing: ${bins(table.finishing ?? [])},\n};`,
);
