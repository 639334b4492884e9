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
