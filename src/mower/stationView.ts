/**
 * The decision's view of a station (src/core/mower/decision.ts StationView) from its last computed
 * state: `mowable` (the index's hysteresis and every unit's hold: quiet hours, rain expected), the
 * band, the rain now, the forecast's `mowable_for` and rain ahead (absent or stale: unknown).
 */
import type { StationView } from '../core/mower/decision.js';

const UNKNOWN: StationView = Object.freeze({
  known: false,
  mowable: false,
  blocked: false,
  raining: false,
  mowableForMinutes: null,
  rainExpectedInMinutes: null,
  lastReadingAtMs: null,
});

const minutesOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function stationViewOf(state: Readonly<Record<string, unknown>> | undefined): StationView {
  if (!state || typeof state.index_score !== 'number') return state ? { ...UNKNOWN, lastReadingAtMs: readingTime(state) } : UNKNOWN;
  const input = (state.input ?? {}) as Record<string, unknown>;
  const forecast = state.forecast as Record<string, unknown> | undefined;
  const fresh = forecast !== undefined && forecast.stale !== true;
  return {
    known: true,
    mowable: state.mowable === true,
    blocked: state.main_status === 'BLOCK',
    raining: typeof input.precipitation_rate === 'number' && input.precipitation_rate > 0,
    mowableForMinutes: fresh ? minutesOrNull(forecast.mowable_for_minutes) : null,
    rainExpectedInMinutes: fresh ? minutesOrNull(forecast.rain_expected_in_minutes) : null,
    lastReadingAtMs: readingTime(state),
  };
}

function readingTime(state: Readonly<Record<string, unknown>>): number | null {
  const at = typeof state.last_reading_at === 'string' ? Date.parse(state.last_reading_at) : Number.NaN;
  return Number.isFinite(at) ? at : null;
}
