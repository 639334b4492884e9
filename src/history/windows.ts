/** Window lengths of the history input fields (docs/api.md, "POST /v1/calculate"), in one-minute buckets. */
import type { FieldName } from '../core/fields.js';

export const MINUTE_MS = 60_000;
/** 14 days: the longest window, and how long buckets are kept. */
export const RETENTION_MINUTES = 14 * 24 * 60;
/** Share of a window the data must cover before the window is supplied. */
export const COVERAGE_REQUIRED = 0.9;
/** Window over which precipitation_rate is derived from increments when the station reports no rate. */
export const RATE_WINDOW_MINUTES = 15;

export const RAIN_WINDOWS = [
  ['rain_1h', 60],
  ['rain_12h', 12 * 60],
  ['rain_24h', 24 * 60],
  ['rain_14d', RETENTION_MINUTES],
] as const satisfies ReadonlyArray<readonly [FieldName, number]>;

export const TEMPERATURE_WINDOWS = [
  ['min_temp_3h', 3 * 60],
  ['min_temp_3d', 3 * 24 * 60],
  ['min_temp_14d', RETENTION_MINUTES],
] as const satisfies ReadonlyArray<readonly [FieldName, number]>;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS);
}

export function describeWindow(minutes: number): string {
  return minutes % 1440 === 0 ? `${minutes / 1440} d` : minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}
