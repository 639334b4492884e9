/**
 * The plan's time grid (docs/model.md, "The plan"): the forecast horizon cut into 5-minute steps, each
 * rated from its forecast hour by the existing checks (the index's band), the rain expected then (and the
 * rain lead before it), frost on the blades and the quiet hours. Pure.
 */
import type { HourIndex } from '../forecastWindows.js';
import { WINDOW_STEP_MINUTES } from '../forecastWindows.js';
import { frostOnBladesAt } from '../frost.js';
import type { SlotBand } from './types.js';

export const STEP_MS = WINDOW_STEP_MINUTES * 60_000;

/** Why a step cannot be mown (the change reasons name it). */
export type StepBar = 'rain' | 'quiet' | 'frost' | 'block' | 'warning' | 'wet_blades' | 'unrated' | 'horizon';

export interface Step {
  readonly startMs: number;
  /** The step's band when it may be mown, else null (and `bar` says why). */
  readonly band: SlotBand | null;
  /** A WARNING step with dry blades: taken only by the debt relaxation. */
  readonly relaxable: boolean;
  readonly bar: StepBar | null;
  readonly index: number;
  readonly hour: HourIndex;
}

export interface StepRules {
  readonly nowMs: number;
  readonly timeZone: string;
  readonly allowedAt?: (ms: number) => boolean;
  readonly rainLeadMinutes?: number;
}

/** Blades dry in a forecast hour: the balance's drying minutes are 0, or without them neither rain nor dew limits the index. */
function bladesDry(hour: HourIndex): boolean {
  const minutes = hour.input.blade_drying_minutes;
  if (minutes !== undefined) return minutes <= 0;
  return hour.limitingCheck !== 'rain' && hour.limitingCheck !== 'humidity';
}

/** Every step from the first step boundary at or after `nowMs` to the end of the last forecast hour. */
export function ratedSteps(hours: readonly HourIndex[], rules: StepRules): Step[] {
  const leadMs = Math.max(0, rules.rainLeadMinutes ?? 0) * 60_000;
  const wet = hours.filter((hour) => hour.rainExpected).map((hour) => [hour.startMs - leadMs, hour.endMs] as const);
  const allowedAt = rules.allowedAt ?? (() => true);
  const steps: Step[] = [];
  const sorted = [...hours].sort((a, b) => a.startMs - b.startMs);
  for (const hour of sorted) {
    const first = Math.max(hour.startMs, Math.ceil(rules.nowMs / STEP_MS) * STEP_MS);
    for (let t = Math.ceil(first / STEP_MS) * STEP_MS; t + STEP_MS <= hour.endMs; t += STEP_MS) {
      const end = t + STEP_MS;
      let bar: StepBar | null = null;
      let relaxable = false;
      if (hour.status === null || hour.index === null) bar = 'unrated';
      else if (wet.some(([from, to]) => t < to && end > from)) bar = 'rain';
      else if (frostOnBladesAt(hour.input, t, rules.timeZone)) bar = 'frost';
      else if (hour.status === 'BLOCK') bar = 'block';
      else if (!allowedAt(t) || !allowedAt(end - 1)) bar = 'quiet';
      else if (hour.status === 'WARNING') {
        relaxable = bladesDry(hour);
        bar = relaxable ? 'warning' : 'wet_blades';
      }
      steps.push({ startMs: t, band: bar === null ? 'OK' : null, relaxable, bar, index: hour.index ?? 0, hour });
    }
  }
  return steps;
}

/** Whether a step may be in a slot: an OK step, or a relaxable WARNING step when the relaxation is on. */
export function usable(step: Step, relaxed: boolean): boolean {
  return step.band === 'OK' || (relaxed && step.relaxable);
}

/** The steps by start, for lookups by instant. */
export function stepMap(steps: readonly Step[]): Map<number, Step> {
  return new Map(steps.map((step) => [step.startMs, step]));
}
