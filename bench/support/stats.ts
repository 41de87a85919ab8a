/** The nearest-rank percentile (p in 0..100) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export const formatMs = (ms: number): string => `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
export const formatKb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
export const formatMb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const formatCount = (count: number): string =>
  Number.isInteger(count) ? count.toLocaleString('en-US') : count.toFixed(1);
