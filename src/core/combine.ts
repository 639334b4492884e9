import { BLOCK_CAP, WARNING_CAP, statusForScore, toScore } from './status.js';
import type { CheckName, DataQuality, Status } from './types.js';

export const MIN_SHARE = 0.75;
export { BLOCK_CAP, WARNING_CAP };
/** Cap when a check failed internally: its finding is unknown, so the index never claims OK. */
export const FAILED_CHECK_CAP = WARNING_CAP;
export const DATA_QUALITY_CAP: Readonly<Record<DataQuality, number>> = { full: 100, partial: 95, minimal: 85 };

export interface ScoredCheck {
  name: CheckName;
  weight: number;
  /** Integer 0..100. */
  score: number;
}

export interface Combination {
  indexScore: number;
  mainStatus: Status;
  limitingCheck: CheckName | null;
}

/**
 * Minimum model (docs/model.md, "Combination (minimum model)"): blend = 0.75·min + 0.25·weighted mean, capped
 * at 39 when any check is BLOCK and at 69 when any is WARNING, then capped by
 * data quality. Ties for limiting_check go to the earliest check in `checks`.
 * When a check failed internally (`anyCheckFailed`) the index is capped at 69:
 * the failed check might have blocked, so the result is WARNING at best.
 * `evidenceCap` caps the index when the input cannot tell whether the blades are wet.
 * With no executed check there is nothing to vouch for mowing: 0 / BLOCK.
 */
export function combine(checks: readonly ScoredCheck[], dataQuality: DataQuality, anyCheckFailed = false, evidenceCap = 100): Combination {
  let limiting: ScoredCheck | undefined;
  // The sums in one loop, added in the same order as two reduce() calls would (same doubles).
  let totalWeight = 0;
  let weightedSum = 0;
  for (const check of checks) {
    if (limiting === undefined || check.score < limiting.score) limiting = check;
    totalWeight += check.weight;
    weightedSum += check.weight * check.score;
  }
  if (limiting === undefined) return { indexScore: 0, mainStatus: 'BLOCK', limitingCheck: null };

  const weightedMean = totalWeight > 0 ? weightedSum / totalWeight : limiting.score;
  const blend = MIN_SHARE * limiting.score + (1 - MIN_SHARE) * weightedMean;
  const worstStatus = statusForScore(limiting.score);
  const bandCap = worstStatus === 'BLOCK' ? BLOCK_CAP : worstStatus === 'WARNING' ? WARNING_CAP : 100;
  const failureCap = anyCheckFailed ? FAILED_CHECK_CAP : 100;
  const indexScore = Math.min(toScore(blend), bandCap, DATA_QUALITY_CAP[dataQuality], failureCap, evidenceCap);
  return { indexScore, mainStatus: statusForScore(indexScore), limitingCheck: limiting.name };
}

export function dataQualityFor(availableCount: number, requiredCount: number, totalCount: number): DataQuality {
  if (availableCount >= totalCount) return 'full';
  if (availableCount <= requiredCount) return 'minimal';
  return 'partial';
}
