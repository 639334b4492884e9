/**
 * The status page's "Missing" row as data, pure: the fields the calculation went without, grouped by
 * why. History windows not covered yet become one group (how long the readings cover so far, the
 * longest window still needed and how much of it is covered), current values held back another, and
 * fields the station does not report a third; so the page says it in one sentence in its own
 * language instead of listing raw field names with the history's English reasons.
 */
import { COVERAGE_REQUIRED, RAIN_WINDOWS, RETENTION_MINUTES, TEMPERATURE_WINDOWS } from '../history/windows.js';

export type HistoryKind = 'rain' | 'temperature';

export interface HistoryGap {
  /** Which histories are short: rain windows (and the time since the last rain), temperature minima. */
  kinds: HistoryKind[];
  /** How long the readings cover so far, minutes (the most any window has). */
  covered_minutes: number;
  /** The longest window still needed, minutes. */
  needed_minutes: number;
  /** How much of that window the readings cover, whole percent (rounded down). */
  covered_percent: number;
  /** The share a window needs before it is used, percent. */
  required_percent: number;
  fields: string[];
}

export interface DataGaps {
  history: HistoryGap | null;
  /** Current values held back: the last one is too old, or there is none yet (a rain rate before the first amount). */
  not_current: string[];
  /** Fields the station does not report (and the daemon does not derive). */
  not_reported: string[];
}

/** Each history field's window and kind; the time since the last rain needs the whole 14 days of rain. */
const HISTORY_FIELDS = new Map<string, { minutes: number; kind: HistoryKind; coverageOf: string }>([
  ...RAIN_WINDOWS.map(([field, minutes]) => [field, { minutes, kind: 'rain' as const, coverageOf: field }] as const),
  ...TEMPERATURE_WINDOWS.map(([field, minutes]) => [field, { minutes, kind: 'temperature' as const, coverageOf: field }] as const),
  ['minutes_since_rain', { minutes: RETENTION_MINUTES, kind: 'rain', coverageOf: 'rain_14d' }],
]);

/**
 * `missing`: the state's missing fields; `withheld`: those held back with a reason; `coverage`: the
 * state's history_coverage (0..1); `anyReading`: the station delivered a reading. Before its first
 * (a modelled station whose provider is unreachable, a station not heard yet) nothing says which
 * fields it measures: a missing field has no current value, it is not "not reported".
 */
export function dataGaps(
  missing: readonly string[],
  withheld: Readonly<Record<string, string>>,
  coverage: Readonly<Record<string, unknown>>,
  anyReading = true,
): DataGaps {
  const share = (field: string): number => {
    const value = coverage[field];
    return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  };
  const gaps: DataGaps = { history: null, not_current: [], not_reported: [] };
  const history: string[] = [];
  for (const field of missing) {
    if (!Object.hasOwn(withheld, field)) (anyReading ? gaps.not_reported : gaps.not_current).push(field);
    else if (HISTORY_FIELDS.has(field)) history.push(field);
    else gaps.not_current.push(field);
  }
  if (history.length === 0) return gaps;
  const windows = history.map((field) => HISTORY_FIELDS.get(field)!);
  const longest = windows.reduce((a, b) => (b.minutes > a.minutes ? b : a));
  const covered = Math.max(...[...HISTORY_FIELDS.values()].map((window) => share(window.coverageOf) * window.minutes));
  gaps.history = {
    kinds: (['rain', 'temperature'] as const).filter((kind) => windows.some((window) => window.kind === kind)),
    covered_minutes: Math.round(covered),
    needed_minutes: longest.minutes,
    covered_percent: Math.floor(share(longest.coverageOf) * 100),
    required_percent: Math.round(COVERAGE_REQUIRED * 100),
    fields: history,
  };
  return gaps;
}
