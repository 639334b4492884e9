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
 * Why `mowable` is what `nextMowable` made it, in one sentence for the state's `mowable_reason`
 * and the log (the same branches, in the same order).
 */
export function mowableReason(state: MowableState, score: number | null, status: string | null, settings: MowableSettings): string {
  if (score === null || status === null) return 'no index could be calculated (inputs missing or stale)';
  if (status === 'BLOCK') return `status BLOCK (index ${score})`;
  if (score < settings.offThreshold) return `index ${score} is below ${settings.offThreshold}`;
  const minutes = settings.onDelayMs / 60_000;
  if (state.mowable) {
    return score >= settings.onThreshold
      ? `index ${score} has stayed at or above ${settings.onThreshold} for ${minutes} min`
      : `index ${score} is still at or above ${settings.offThreshold}, where the flag stays on`;
  }
  return score >= settings.onThreshold
    ? `index ${score} is at or above ${settings.onThreshold}; waiting until it has stayed there for ${minutes} min`
    : `index ${score} is below ${settings.onThreshold}, the level at which the flag turns on`;
}
