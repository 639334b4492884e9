/**
 * The calculation input a station history supports at a given time: fresh
 * current values, and the rain and temperature windows the readings cover
 * well enough, with the reason for each field held back. Pure: it reads the
 * history's state and changes nothing (except for what `plausible` notes).
 */
import type { CalculationInput, FieldName } from '../core/fields.js';
import { type CurrentField, CURRENT_FIELDS } from '../ingest/types.js';
import { MAX_FUTURE_SKEW_MS } from '../ingest/time.js';
import type { LatestRow } from './types.js';
import type { WindowScan } from './windowSummary.js';
import {
  COVERAGE_REQUIRED,
  MINUTE_MS,
  RAIN_WINDOWS,
  RATE_WINDOW_MINUTES,
  RETENTION_MINUTES,
  TEMPERATURE_WINDOWS,
  describeWindow,
  minuteOf,
} from './windows.js';

export interface Assembly {
  /** Valid calculation input: fresh current values and covered windows. */
  input: CalculationInput;
  /** Fields we hold data for but do not supply, with the reason. */
  withheld: Partial<Record<FieldName, string>>;
  /** Fields computed from the history instead of reported (precipitation_rate). */
  derived: FieldName[];
  /** Share of each window covered by readings, 0..1. */
  coverage: Partial<Record<FieldName, number>>;
  /** Latest reading time, epoch ms; null before the first reading. */
  lastReadingAtMs: number | null;
}

/** The parts of a station history the assembly reads. */
export interface AssemblySource {
  latest: ReadonlyMap<CurrentField, LatestRow>;
  /** The rain and temperature windows ending at a minute (./windowSummary.ts). */
  windows: { scan(nowMinute: number): WindowScan };
  /** The history options that bear on the assembly (a subset of HistoryOptions). */
  options: { freshnessMs: number; fieldFreshnessMs?: Partial<Record<CurrentField, number>>; maxGapMinutes: number };
  /** Rain amounts or a rate were ever reported (beyond what the buckets show). */
  rainSeen: boolean;
  lastReadingAtMs: number | null;
  /** A value derived from rain buckets, capped at the field's maximum (and noted when capped). */
  plausible: (field: FieldName, value: number) => number;
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The calculation input the history supports at `nowMs`. */
export function assembleInput(source: AssemblySource, nowMs: number): Assembly {
  const { latest: latestByField, windows, options, rainSeen, lastReadingAtMs, plausible } = source;
  const input: CalculationInput = {};
  const withheld: Partial<Record<FieldName, string>> = {};
  const derived: FieldName[] = [];
  const coverage: Partial<Record<FieldName, number>> = {};

  for (const field of CURRENT_FIELDS) {
    const latest = latestByField.get(field);
    if (!latest) continue;
    const limitMs = options.fieldFreshnessMs?.[field] ?? options.freshnessMs;
    const ageMs = nowMs - latest.atMs;
    // Stamped beyond now: by a clock that has since stepped back. Never fresh; a new reading supersedes it.
    if (ageMs < -MAX_FUTURE_SKEW_MS)
      withheld[field] = `last value is stamped ${Math.round(-ageMs / MINUTE_MS)} min in the future (the clock stepped back)`;
    else if (ageMs <= limitMs) input[field] = latest.value;
    else withheld[field] = `last value is ${Math.round(ageMs / MINUTE_MS)} min old (limit ${Math.round(limitMs / MINUTE_MS)} min)`;
  }

  const scan = windows.scan(minuteOf(nowMs));
  const hasRain = rainSeen || scan.lastRainSample !== null;
  if (hasRain) {
    for (const [field, minutes] of RAIN_WINDOWS) {
      const window = scan.windows.get(minutes)!;
      coverage[field] = round(window.rainCoverage);
      if (window.rainCoverage >= COVERAGE_REQUIRED) input[field] = plausible(field, round(window.rainMm));
      else withheld[field] = coverageReason(window.rainCoverage, minutes);
    }
    if (scan.lastRainMinute !== null) {
      const minutes = scan.nowMinute - scan.lastRainMinute;
      if (minutes <= options.maxGapMinutes || scan.coverageSinceRain >= COVERAGE_REQUIRED) input.minutes_since_rain = minutes;
      else
        withheld.minutes_since_rain = `readings cover only ${Math.floor(scan.coverageSinceRain * 100)}% of the time since the last rain (90% needed)`;
    } else {
      const window = scan.windows.get(RETENTION_MINUTES)!;
      if (window.rainCoverage >= COVERAGE_REQUIRED) input.minutes_since_rain = RETENTION_MINUTES;
      else withheld.minutes_since_rain = 'no rain in the history, and the history does not yet cover 14 days';
    }
    if (input.precipitation_rate === undefined) {
      const window = scan.windows.get(RATE_WINDOW_MINUTES)!;
      if (window.rainCoverage >= COVERAGE_REQUIRED) {
        input.precipitation_rate = plausible('precipitation_rate', round((window.rainMm * 60) / RATE_WINDOW_MINUTES));
        derived.push('precipitation_rate');
        delete withheld.precipitation_rate;
      } else if (window.rainCoverage > 0) {
        // A station without a rate of its own, before the window is covered: the rain over the minutes covered so far.
        input.precipitation_rate = plausible(
          'precipitation_rate',
          round((window.rainMm * 60) / (window.rainCoverage * RATE_WINDOW_MINUTES)),
        );
        derived.push('precipitation_rate');
        delete withheld.precipitation_rate;
      } else if (withheld.precipitation_rate === undefined) {
        withheld.precipitation_rate = `no rate reported, and no rain amount observed in the last ${RATE_WINDOW_MINUTES} min yet (a rain counter's first reading only sets its baseline)`;
      }
    }
  }
  if (latestByField.has('temperature')) {
    for (const [field, minutes] of TEMPERATURE_WINDOWS) {
      const window = scan.windows.get(minutes)!;
      coverage[field] = round(window.tempCoverage);
      if (window.tempCoverage >= COVERAGE_REQUIRED && window.tempMinC !== null) input[field] = window.tempMinC;
      else withheld[field] = coverageReason(window.tempCoverage, minutes);
    }
  }
  return { input, withheld, derived, coverage, lastReadingAtMs };
}

function coverageReason(covered: number, minutes: number): string {
  return `history covers ${Math.floor(covered * 100)}% of the last ${describeWindow(minutes)} (90% needed)`;
}
