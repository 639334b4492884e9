/**
 * Mowing debt (docs/model.md, "Mowing debt"): the growth past the height at which the one-third rule called
 * for a cut, in mm and in the mower's minutes to take it back. Pure.
 *
 * What the planner unit calls: `mowingDebt(need)` with the need of ./need.ts; the plan (./planner.ts) takes
 * the result as its input `debt`.
 */
import { DUE_HEIGHT_FACTOR } from './need.js';
import type { LawnNeed, MowingDebt } from './types.js';

/**
 * Over the threshold once the overdue growth is that of this many days at the current rate: the cut has
 * been due for three days, and a fourth day without cutting is what the relaxation avoids.
 */
export const DEBT_THRESHOLD_DAYS = 3;
/** …or, whatever the rate, once the overdue growth is this share of the target height (a third more than the rule allows). */
export const DEBT_THRESHOLD_SHARE = 1 / 3;

export function mowingDebt(need: LawnNeed): MowingDebt {
  const target = need.targetHeightMm;
  const overdueMm = Math.max(0, need.heightMm - target * DUE_HEIGHT_FACTOR);
  const perCutMm = target * (DUE_HEIGHT_FACTOR - 1);
  const runtimeMinutes = perCutMm > 0 && overdueMm > 0 ? Math.ceil((overdueMm / perCutMm) * need.minutesPerFullCut - 1e-9) : 0;
  const thresholdMm = Math.min(DEBT_THRESHOLD_DAYS * need.growthMmPerDay, target * DEBT_THRESHOLD_SHARE);
  return {
    mm: Math.round(overdueMm * 10) / 10,
    runtimeMinutes,
    overThreshold: overdueMm > 0 && overdueMm >= thresholdMm,
  };
}
