import type { CalculationContext, CalculationResult, CheckName, CheckResult, RawInput, Season } from '../../src/core/index.js';
import { calculate } from '../../src/core/index.js';

/** 2026-05-12 12:00 UTC: spring in the north. */
export const SPRING_NOON_MS = Date.UTC(2026, 4, 12, 12, 0, 0);
export const SUMMER_NOON_MS = Date.UTC(2026, 6, 15, 12, 0, 0);
export const AUTUMN_NOON_MS = Date.UTC(2026, 9, 14, 12, 0, 0);
export const WINTER_NOON_MS = Date.UTC(2026, 0, 20, 12, 0, 0);

export function contextAt(nowMs: number, overrides: Partial<CalculationContext> = {}): CalculationContext {
  return { nowMs, timeZone: 'Europe/Berlin', hemisphere: 'north', ...overrides };
}

/** Runs calculate and fails the test when the outcome is an input error. */
export function resultFor(input: RawInput, context: CalculationContext = contextAt(SPRING_NOON_MS)): CalculationResult {
  const outcome = calculate(input, context);
  if (!outcome.ok) throw new Error(`unexpected input error: ${outcome.error.message}`);
  return outcome.result;
}

/** A dry, mild, calm spring day with firm soil and every field supplied. */
export const GOOD_DAY: Readonly<Record<string, number>> = {
  temperature: 18,
  precipitation_rate: 0,
  humidity: 55,
  wind_speed: 8,
  wind_gusts: 15,
  dew_point: 8.8,
  solar: 550,
  soil_temperature: 15,
  soil_moisture: 20,
  rain_1h: 0,
  rain_12h: 0,
  rain_24h: 0,
  rain_14d: 8,
  minutes_since_rain: 3000,
  min_temp_3h: 12,
  min_temp_3d: 6,
  min_temp_14d: 3,
};

/** One check's result for `input` (precipitation_rate and temperature default to dry and mild). */
export function checkFor(
  name: CheckName,
  input: RawInput,
  season: Season = 'summer',
  lawn: CalculationContext['lawn'] = undefined,
): CheckResult {
  const result = resultFor(
    { temperature: 18, precipitation_rate: 0, ...input },
    contextAt(SUMMER_NOON_MS, { forcedSeason: season, ...(lawn === undefined ? {} : { lawn }) }),
  );
  const check = result.checks[name];
  if (check === undefined) throw new Error(`check ${name} missing`);
  return check;
}

export function subScore(check: CheckResult, key: string): number {
  const value = (check.meta.sub_scores as Record<string, number> | undefined)?.[key];
  if (value === undefined) throw new Error(`sub-score ${key} missing`);
  return value;
}

/** The check entry docs/api.md gives for a check skipped because its required field is missing. */
export function skippedCheck(field: string): CheckResult {
  return {
    executed: false,
    skipped_reason: `Required field ${field} is missing or invalid.`,
    status: null,
    score: null,
    data_confidence: null,
    reasons: [],
    skipped_parts: {},
    meta: {},
  };
}
