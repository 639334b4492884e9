/** Small statistics helpers: every figure the benchmarks report is a median or a ratio of same-run measurements. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Nearest-rank percentile, `fraction` in [0, 1]. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}

/** a / b, or NaN when the baseline is zero or missing. */
export function ratio(value: number, baseline: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return value / baseline;
}

/** Median of the per-round ratios: robust against a round that was slow for every subject alike. */
export function medianRatio(values: readonly number[], baselines: readonly number[]): number {
  const ratios = values.map((value, index) => ratio(value, baselines[index] ?? Number.NaN)).filter((r) => Number.isFinite(r));
  return median(ratios);
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return Number.NaN;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumX += xs[i] as number;
    sumY += ys[i] as number;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - meanX;
    numerator += dx * ((ys[i] as number) - meanY);
    denominator += dx * dx;
  }
  return denominator === 0 ? Number.NaN : numerator / denominator;
}

export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Least-squares slope with the half-width of its 95 % confidence interval (t quantile from a
 * small table; the normal 1.96 above 60 degrees of freedom). Consecutive samples of a process's
 * RSS are correlated, so fit it on block medians (blockMedians) rather than on every sample.
 */
export function slopeInterval(xs: readonly number[], ys: readonly number[]): { slope: number; halfWidth95: number; n: number } {
  const n = Math.min(xs.length, ys.length);
  const b = slope(xs, ys);
  if (n < 3 || !Number.isFinite(b)) return { slope: b, halfWidth95: Number.NaN, n };
  const meanX = xs.slice(0, n).reduce((sum, x) => sum + x, 0) / n;
  const meanY = ys.slice(0, n).reduce((sum, y) => sum + y, 0) / n;
  let residuals = 0;
  let spread = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - meanX;
    residuals += ((ys[i] as number) - meanY - b * dx) ** 2;
    spread += dx * dx;
  }
  const df = n - 2;
  const t = df > 60 ? 1.96 : df > 30 ? 2.04 : df > 20 ? 2.09 : df > 10 ? 2.23 : df > 5 ? 2.57 : df > 2 ? 3.18 : 12.71;
  return { slope: b, halfWidth95: t * Math.sqrt(residuals / df / spread), n };
}

/** Medians of consecutive blocks of `blockSize` along x (x ascending); blocks with fewer than 3 points are dropped. */
export function blockMedians(xs: readonly number[], ys: readonly number[], blockSize: number): { xs: number[]; ys: number[] } {
  const blocks = new Map<number, { xs: number[]; ys: number[] }>();
  const start = xs[0] ?? 0;
  xs.forEach((x, i) => {
    const key = Math.floor((x - start) / blockSize);
    const block = blocks.get(key) ?? { xs: [], ys: [] };
    block.xs.push(x);
    block.ys.push(ys[i] as number);
    blocks.set(key, block);
  });
  const out = { xs: [] as number[], ys: [] as number[] };
  for (const block of blocks.values()) {
    if (block.xs.length < 3) continue;
    out.xs.push(median(block.xs));
    out.ys.push(median(block.ys));
  }
  return out;
}
