/**
 * Hysteresis of the `mowable` flag for robot-mower automations: it turns on
 * only after the index has stayed at or above the on-threshold for the
 * on-delay, and off at once on BLOCK, below the off-threshold, or when no
 * result can be computed. Pure.
 */
import { localDateTime } from '../core/index.js';
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

/** `HH:MM` of `ms` on the clock of `timeZone` (the configured `timezone`), rounded up: at the minute shown it has happened. */
function clockTime(ms: number, timeZone: string): string {
  const { hour, minute } = localDateTime(Math.ceil(ms / 60_000) * 60_000, timeZone);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * Why `mowable` is what `nextMowable` made it, in one sentence for the state's `mowable_reason`
 * and the log (the same branches, in the same order); `de`: the German sentence for
 * `mowable_reason_de` (the language of the model's reasons). While the on-delay runs, the sentence
 * names the clock time in `timeZone` at which the flag turns on if the index stays up.
 */
export function mowableReason(
  state: MowableState,
  score: number | null,
  status: string | null,
  settings: MowableSettings,
  lang: 'en' | 'de' = 'en',
  timeZone = 'UTC',
): string {
  const de = lang === 'de';
  const { onThreshold: on, offThreshold: off } = settings;
  if (score === null || status === null)
    return de ? 'kein Index berechenbar (Eingaben fehlen oder sind veraltet)' : 'no index could be calculated (inputs missing or stale)';
  if (status === 'BLOCK') return de ? `Index ${score}: Mähen gesperrt` : `status BLOCK (index ${score})`;
  if (score < off) return de ? `Index ${score} liegt unter ${off}` : `index ${score} is below ${off}`;
  const minutes = settings.onDelayMs / 60_000;
  if (state.mowable) {
    if (score >= on)
      return de
        ? `Index ${score} liegt seit ${minutes} Min. bei ${on} oder darüber`
        : `index ${score} has stayed at or above ${on} for ${minutes} min`;
    return de
      ? `Index ${score} liegt noch bei ${off} oder darüber, so bleibt die Freigabe`
      : `index ${score} is still at or above ${off}, where the flag stays on`;
  }
  if (score >= on && state.aboveSinceMs !== null) {
    const at = clockTime(state.aboveSinceMs + settings.onDelayMs, timeZone);
    return de
      ? `Index ${score} liegt bei ${on} oder darüber; frei um ${at}, wenn er bis dahin dort bleibt (${minutes} Min.)`
      : `index ${score} is at or above ${on}; mowable at ${at} if it stays there until then (${minutes} min)`;
  }
  if (score >= on) {
    return de
      ? `Index ${score} liegt bei ${on} oder darüber; frei, sobald er ${minutes} Min. dort geblieben ist`
      : `index ${score} is at or above ${on}; waiting until it has stayed there for ${minutes} min`;
  }
  return de
    ? `Index ${score} liegt unter ${on}, der Schwelle für die Freigabe`
    : `index ${score} is below ${on}, the level at which the flag turns on`;
}
