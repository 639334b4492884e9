import type { CheckName, Status } from './types.js';

export const OK_MIN_SCORE = 70;
export const WARNING_MIN_SCORE = 40;

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

export const CHECK_NAMES: readonly CheckName[] = ['temperature', 'soiltemp', 'rain', 'wind', 'humidity'];
