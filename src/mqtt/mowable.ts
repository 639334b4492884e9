/**
 * Hysteresis of the `mowable` flag for robot-mower automations: it turns on
 * only after the index has stayed at or above the on-threshold for the
 * on-delay, and off at once on BLOCK, below the off-threshold, or when no
 * result can be computed. Pure.
 */
export interface MowableSettings {
  onThreshold: number;
  offThreshold: number;
  onDelayMs: number;
}

export interface MowableState {
  mowable: boolean;
  /** Since when the index has been at or above the on-threshold without interruption; null if it is not. */
  aboveSinceMs: number | null;
}

export const INITIAL_MOWABLE: MowableState = { mowable: false, aboveSinceMs: null };

/** `score`/`status` are null when the calculation had no result. */
export function nextMowable(
  previous: MowableState,
  score: number | null,
  status: string | null,
  nowMs: number,
  settings: MowableSettings,
): MowableState {
  if (score === null || status === null || status === 'BLOCK' || score < settings.offThreshold) {
    return { mowable: false, aboveSinceMs: null };
  }
  if (score >= settings.onThreshold) {
    const aboveSinceMs = previous.aboveSinceMs ?? nowMs;
    return { mowable: previous.mowable || nowMs - aboveSinceMs >= settings.onDelayMs, aboveSinceMs };
  }
  // Between the thresholds: keep the flag, but the on-timer starts over.
  return { mowable: previous.mowable, aboveSinceMs: null };
}

/**
 * Why `mowable` is what `nextMowable` made it, in words for the log (the same branches, in the
 * same order). Called when the flag changed.
 */
export function mowableReason(mowable: boolean, score: number | null, status: string | null, settings: MowableSettings): string {
  if (mowable) {
    return `index ${score} has stayed at or above ${settings.onThreshold} for ${settings.onDelayMs / 60_000} min`;
  }
  if (score === null || status === null) return 'no index could be calculated (inputs missing or stale)';
  if (status === 'BLOCK') return `status BLOCK (index ${score})`;
  return `index ${score} fell below ${settings.offThreshold}`;
}
