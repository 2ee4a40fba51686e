// Writes the bench's pictures as plain SVG: per trace folder, the percent shown against the
// true percent (mean over each group's runs, one line per source, the exact-N bound dashed),
// and a calibration plot (the share of samples whose true time left fell below the range's
// p10, the point ETA and the p90).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface PlotRun {
  curve: { truth: number; shown: number }[];
  quantileHits: [number, number, number];
  ranged: [number, number, number];
}

/** One trace folder's scores: group → source → runs. */
export interface PlotSet {
  name: string;
  results: Map<string, Map<string, PlotRun[]>>;
}

const COLOURS = ['#888888', '#e69f00', '#56b4e9', '#009e73', '#d55e00', '#0072b2', '#000000'];
const PANEL = 260;
const PAD = 36;
const BINS = 50;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function frame(x: number, y: number, title: string): string {
  const ticks = [0, 25, 50, 75, 100]
    .map((v) => {
      const px = x + (v / 100) * PANEL;
      const py = y + PANEL - (v / 100) * PANEL;
      return `<line x1="${px}" y1="${y}" x2="${px}" y2="${y + PANEL}" stroke="#eee"/><line x1="${x}" y1="${py}" x2="${x + PANEL}" y2="${py}" stroke="#eee"/><text x="${px}" y="${y + PANEL + 14}" font-size="10" text-anchor="middle">${v}</text><text x="${x - 4}" y="${py + 3}" font-size="10" text-anchor="end">${v}</text>`;
    })
    .join('');
  return `<rect x="${x}" y="${y}" width="${PANEL}" height="${PANEL}" fill="none" stroke="#999"/>${ticks}<text x="${x + PANEL / 2}" y="${y - 8}" font-size="12" text-anchor="middle">${esc(title)}</text>`;
}

function polyline(x: number, y: number, points: [number, number][], colour: string, dashed: boolean): string {
  const d = points.map(([px, py]) => `${(x + (px / 100) * PANEL).toFixed(1)},${(y + PANEL - (py / 100) * PANEL).toFixed(1)}`).join(' ');
  return `<polyline points="${d}" fill="none" stroke="${colour}" stroke-width="1.5"${dashed ? ' stroke-dasharray="5 4"' : ''}/>`;
}

function legend(x: number, y: number, names: string[]): string {
  return names
    .map(
      (n, i) =>
        `<line x1="${x}" y1="${y + i * 16}" x2="${x + 24}" y2="${y + i * 16}" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"${n.startsWith('bound') ? ' stroke-dasharray="5 4"' : ''}/><text x="${x + 30}" y="${y + i * 16 + 4}" font-size="11">${esc(n)}</text>`,
    )
    .join('');
}

function svg(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${body}</svg>\n`;
}

/** Mean shown percent per bin of the true percent, over the runs. */
function meanCurve(runs: PlotRun[]): [number, number][] {
  const sum = new Array<number>(BINS).fill(0);
  const n = new Array<number>(BINS).fill(0);
  for (const run of runs)
    for (const p of run.curve) {
      const b = Math.min(BINS - 1, Math.floor((p.truth / 100) * BINS));
      sum[b]! += p.shown;
      n[b]!++;
    }
  return sum.flatMap((s, b) => (n[b]! > 0 ? [[((b + 0.5) * 100) / BINS, s / n[b]!] as [number, number]] : []));
}

/** Writes bench/out/estimator-<folder>-percent.svg and -calibration.svg; returns the paths. */
export function writePlots(sets: PlotSet[]): string[] {
  const out = resolve(import.meta.dirname, '..', 'out');
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const set of sets) {
    const groups = [...set.results.keys()];
    const variants = [...(set.results.values().next().value?.keys() ?? [])];
    const cols = Math.min(3, groups.length);
    const rows = Math.ceil(groups.length / cols);
    let body = '';
    for (const [i, group] of groups.entries()) {
      const x = PAD + (i % cols) * (PANEL + PAD * 2);
      const y = PAD + Math.floor(i / cols) * (PANEL + PAD * 2);
      body += frame(x, y, `${group}: shown % against true %`);
      body += polyline(
        x,
        y,
        [
          [0, 0],
          [100, 100],
        ],
        '#cccccc',
        false,
      );
      for (const [k, v] of variants.entries()) {
        const runs = set.results.get(group)?.get(v) ?? [];
        body += polyline(x, y, meanCurve(runs), COLOURS[k % COLOURS.length]!, v.startsWith('bound'));
      }
    }
    const legendX = PAD + cols * (PANEL + PAD * 2);
    body += legend(legendX, PAD, variants);
    const percentFile = join(out, `estimator-${set.name}-percent.svg`);
    writeFileSync(percentFile, svg(legendX + 220, PAD + rows * (PANEL + PAD * 2), body));
    written.push(percentFile);

    // Calibration: share of samples with the true time left at or below each quantile given.
    let cal = frame(PAD, PAD, `${set.name}: share of time left below each quantile`);
    cal += polyline(
      PAD,
      PAD,
      [
        [0, 0],
        [100, 100],
      ],
      '#cccccc',
      true,
    );
    const ranged = variants.filter((v) => [...set.results.values()].some((m) => (m.get(v) ?? []).some((r) => r.ranged.some((c) => c > 0))));
    for (const [k, v] of ranged.entries()) {
      const runs = [...set.results.values()].flatMap((m) => m.get(v) ?? []);
      const total = runs.reduce((a, r) => a + r.ranged[0] + r.ranged[1] + r.ranged[2], 0);
      const hits = [0, 1, 2].map((q) => runs.reduce((a, r) => a + r.quantileHits[q as 0 | 1 | 2], 0) / Math.max(1, total));
      const points: [number, number][] = [
        [10, 100 * hits[0]!],
        [50, 100 * hits[1]!],
        [90, 100 * hits[2]!],
      ];
      cal += polyline(PAD, PAD, points, COLOURS[(k + 2) % COLOURS.length]!, false);
      cal += points
        .map(
          ([px, py]) =>
            `<circle cx="${PAD + (px / 100) * PANEL}" cy="${PAD + PANEL - (py / 100) * PANEL}" r="3" fill="${COLOURS[(k + 2) % COLOURS.length]}"/>`,
        )
        .join('');
    }
    cal += ranged
      .map(
        (n, i) =>
          `<line x1="${PAD + PANEL + 30}" y1="${PAD + i * 16}" x2="${PAD + PANEL + 54}" y2="${PAD + i * 16}" stroke="${COLOURS[(i + 2) % COLOURS.length]}" stroke-width="2"/><text x="${PAD + PANEL + 60}" y="${PAD + i * 16 + 4}" font-size="11">${esc(n)}</text>`,
      )
      .join('');
    cal += `<text x="${PAD + PANEL / 2}" y="${PAD + PANEL + 30}" font-size="11" text-anchor="middle">quantile given (p10, ETA, p90)</text>`;
    const calibrationFile = join(out, `estimator-${set.name}-calibration.svg`);
    writeFileSync(calibrationFile, svg(PAD + PANEL + 260, PAD + PANEL + 50, cal));
    written.push(calibrationFile);
  }
  return written;
}
