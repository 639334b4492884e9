/**
 * Antecedent precipitation index (API) of the rain check's soil sub-model, smoothed at the 24-hour
 * window edge (model 1.1, D11). Documented in docs/model.md ("D11 The 24-hour window edge").
 */
import type { CalculationInput } from './fields.js';
import { clamp } from './piecewise.js';
import type { EffectiveRainWindows } from './rainWindows.js';
import type { Season } from './types.js';

/** c = mean(k^1..k^13) of the daily API recession per season: the weight of rain older than 24 h. */
export const API_RECESSION_C: Readonly<Record<Season, number>> = { summer: 0.38, spring: 0.52, autumn: 0.52, winter: 0.71 };

const HALF_DAY_MIN = 720;
const DAY_MIN = 1440;

/**
 * Weight of the rain that fell 12–24 h ago: 1 at 12 h (like the last 12 h) falling linearly to c at
 * 24 h (like older rain), at the slice's estimated age. The age lies between the measured
 * minutes_since_rain (at least 12 h) and 24 h; the midpoint is taken (18 h when it is not measured).
 * As minutes_since_rain grows to 24 h the weight reaches c, so no step remains when the rain leaves
 * the 24-hour window.
 */
export function olderSliceWeight(season: Season, measuredMinutesSinceRain: number | undefined): number {
  const c = API_RECESSION_C[season];
  const newestMin = Math.max(HALF_DAY_MIN, measuredMinutesSinceRain ?? HALF_DAY_MIN);
  const ageMin = (Math.min(newestMin, DAY_MIN) + DAY_MIN) / 2;
  return 1 - (1 - c) * clamp((ageMin - HALF_DAY_MIN) / HALF_DAY_MIN, 0, 1);
}

/**
 * API in mm: the last 12 h count fully, 12–24 h with olderSliceWeight, older rain of the 14 days with
 * c. 1.0 weighted the whole 24 h fully, so heavy rain leaving the window dropped the index by
 * (1 − c) of its amount at once. Every weight is ≥ 0 and the weights fall with age, so more rain in
 * any window never lowers the API and more time since rain never raises it.
 */
export function antecedentPrecipitationMm(values: CalculationInput, windows: EffectiveRainWindows | null, season: Season): number | null {
  if (values.rain_14d === undefined) return null;
  const rain12hMm = windows?.rain12hMm ?? 0;
  const rain24hMm = windows?.rain24hMm ?? 0;
  const rain14dMm = Math.max(values.rain_14d, rain24hMm);
  const weight = olderSliceWeight(season, values.minutes_since_rain);
  return rain12hMm + weight * (rain24hMm - rain12hMm) + API_RECESSION_C[season] * (rain14dMm - rain24hMm);
}
