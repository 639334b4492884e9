import type { Status } from './types.js';

export const OK_MIN_SCORE = 70;
export const WARNING_MIN_SCORE = 40;
/** The highest score of each band below OK: what a cap to "BLOCK at best" or "WARNING at best" means. */
export const BLOCK_CAP = WARNING_MIN_SCORE - 1;
export const WARNING_CAP = OK_MIN_SCORE - 1;

/** OK at 70 or more, WARNING 40–69, BLOCK below 40 (interface spec). */
export function statusForScore(score: number): Status {
  if (score >= OK_MIN_SCORE) return 'OK';
  if (score >= WARNING_MIN_SCORE) return 'WARNING';
  return 'BLOCK';
}

/** Rounds a score to an integer in 0..100 (half up, deterministic). */
export function toScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}
