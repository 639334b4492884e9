import type { CalculationInput } from './fields.js';
import type { RainSourceInfo } from './types.js';

export const RAIN_WINDOWS = ['rain_1h', 'rain_12h', 'rain_24h'] as const;
export type RainWindow = (typeof RAIN_WINDOWS)[number];

export interface EffectiveRainWindows {
  /** mm in the last 1 / 12 / 24 hours after filling gaps and resolving contradictions. */
  rain1hMm: number;
  rain12hMm: number;
  rain24hMm: number;
  supplied: readonly RainWindow[];
  notProvided: readonly RainWindow[];
  /** True when a broader window was smaller than a narrower one. */
  inconsistent: boolean;
}

interface WindowLists {
  supplied: readonly RainWindow[];
  notProvided: readonly RainWindow[];
}

/** The supplied and missing windows for each combination (bit i: RAIN_WINDOWS[i] supplied), built once and frozen. */
const WINDOW_LISTS: readonly WindowLists[] = Array.from({ length: 2 ** RAIN_WINDOWS.length }, (_, mask) => ({
  supplied: Object.freeze(RAIN_WINDOWS.filter((_name, bit) => (mask & (1 << bit)) !== 0)),
  notProvided: Object.freeze(RAIN_WINDOWS.filter((_name, bit) => (mask & (1 << bit)) === 0)),
}));

/**
 * Effective rain windows. A missing narrower window takes the next broader
 * supplied value (conservative: all rain assumed recent); a missing broader
 * window takes the narrower value (lower bound). A broader window is never
 * smaller than a narrower one: the narrower window is its lower bound.
 * Every step is a max or a copy, so more rain in any window never gives less.
 */
export function effectiveRainWindows(values: CalculationInput): EffectiveRainWindows | null {
  const r1 = values.rain_1h;
  const r12 = values.rain_12h;
  const r24 = values.rain_24h;
  if (r1 === undefined && r12 === undefined && r24 === undefined) return null;
  const { supplied, notProvided } = WINDOW_LISTS[
    (r1 === undefined ? 0 : 1) + (r12 === undefined ? 0 : 2) + (r24 === undefined ? 0 : 4)
  ] as WindowLists;
  const filled1 = r1 ?? r12 ?? r24 ?? 0;
  const filled12 = r12 ?? r24 ?? filled1;
  const filled24 = r24 ?? filled12;
  const rain1hMm = filled1;
  const rain12hMm = Math.max(filled12, rain1hMm);
  const rain24hMm = Math.max(filled24, rain12hMm);
  const inconsistent =
    (r1 !== undefined && r12 !== undefined && r12 < r1) ||
    (r12 !== undefined && r24 !== undefined && r24 < r12) ||
    (r1 !== undefined && r24 !== undefined && r24 < r1);
  return {
    rain1hMm,
    rain12hMm,
    rain24hMm,
    supplied,
    notProvided,
    inconsistent,
  };
}

/** Time-sliced cumulative rain (docs/model.md, "Check: rain"): the newest slice counts fully, older slices less. */
export function weightedCumulativeMm(windows: EffectiveRainWindows): number {
  return windows.rain1hMm + 0.6 * (windows.rain12hMm - windows.rain1hMm) + 0.3 * (windows.rain24hMm - windows.rain12hMm);
}

export const RAIN_SOURCE_NOTE =
  'Differences between the supplied windows form time slices (0-1 h, 1-12 h, 12-24 h) for surface moisture; ' +
  'more recent slices weigh more. The more windows are supplied, the finer the slices; ' +
  'a missing narrower window is assumed to hold all rain of the next broader one.';

/** rain_source_info of the result; null when none of rain_1h, rain_12h, rain_24h is valid. */
export function rainSourceInfo(values: CalculationInput): RainSourceInfo | null {
  return rainSourceInfoOf(effectiveRainWindows(values));
}

/** rainSourceInfo from the windows effectiveRainWindows gave (fresh lists: the frozen ones are shared). */
export function rainSourceInfoOf(windows: EffectiveRainWindows | null): RainSourceInfo | null {
  if (windows === null) return null;
  const broadest = windows.supplied[windows.supplied.length - 1] ?? 'rain_24h';
  return {
    windows_used: [...windows.supplied],
    cumulative_source: broadest,
    not_provided: [...windows.notProvided],
    note: RAIN_SOURCE_NOTE,
  };
}
