// The k nearest rows of a feature matrix, for the estimator's bounds (bench:estimator:bound,
// bench:estimator:percent-bound): a brute-force scan with a bounded max-heap, so a candidate
// farther than the k-th nearest so far is dropped after the first features that prove it.

/** Scales every feature to mean 0 and standard deviation 1 over the samples (in place). */
export function standardise(samples: readonly { features: number[] }[]): void {
  const width = samples[0]?.features.length ?? 0;
  for (let j = 0; j < width; j++) {
    let sum = 0;
    let sq = 0;
    for (const s of samples) {
      sum += s.features[j]!;
      sq += s.features[j]! ** 2;
    }
    const mean = sum / samples.length;
    const sd = Math.sqrt(Math.max(0, sq / samples.length - mean * mean)) || 1;
    for (const s of samples) s.features[j] = (s.features[j]! - mean) / sd;
  }
}

/** Rows of equal width, flattened row after row. */
export interface FeatureRows {
  /** The features, row after row. */
  flat: Float64Array;
  /** How many features each row has. */
  width: number;
}

/**
 * For each row `i`, the indices of its `k` nearest rows (squared Euclidean distance) among the
 * rows `j` with `skip(i, j)` false, nearest first (fewer when fewer are allowed).
 */
export function nearestRows(rows: FeatureRows, k: number, skip: (i: number, j: number) => boolean): Int32Array[] {
  const { flat, width } = rows;
  const n = width === 0 ? 0 : flat.length / width;
  const out: Int32Array[] = [];
  // The k nearest so far, as a max-heap on distance: a candidate farther than the top is skipped at once.
  const heapD = new Float64Array(k);
  const heapJ = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    let size = 0;
    for (let j = 0; j < n; j++) {
      if (skip(i, j)) continue;
      let d = 0;
      for (let f = 0; f < width && (size < k || d < heapD[0]!); f++) {
        const diff = flat[i * width + f]! - flat[j * width + f]!;
        d += diff * diff;
      }
      if (size < k) {
        let c = size++;
        while (c > 0) {
          const parent = (c - 1) >> 1;
          if (heapD[parent]! >= d) break;
          heapD[c] = heapD[parent]!;
          heapJ[c] = heapJ[parent]!;
          c = parent;
        }
        heapD[c] = d;
        heapJ[c] = j;
      } else if (d < heapD[0]!) {
        let c = 0;
        for (;;) {
          const l = 2 * c + 1;
          if (l >= k) break;
          const r = l + 1;
          const big = r < k && heapD[r]! > heapD[l]! ? r : l;
          if (heapD[big]! <= d) break;
          heapD[c] = heapD[big]!;
          heapJ[c] = heapJ[big]!;
          c = big;
        }
        heapD[c] = d;
        heapJ[c] = j;
      }
    }
    const order = Array.from(heapJ.subarray(0, size), (j, m) => ({ j, d: heapD[m]! })).sort((a, b) => a.d - b.d);
    out.push(Int32Array.from(order, (o) => o.j));
  }
  return out;
}
