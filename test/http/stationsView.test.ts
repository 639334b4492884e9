/** Shaping a station's state for the endpoints: the units' fragments are typed (StationStateFields); the core's members read as they come. */
import { describe, expect, it } from 'vitest';
import { detail, forecastSummary, summarize, type StationsView } from '../../src/http/stationsView.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import type { ForecastView } from '../../src/forecast/forecastReport.js';

function viewWith(state: Partial<StationStatePayload> | undefined, lastMs: number | null): StationsView {
  return {
    stations: () => [{ id: 'garden', name: 'Garden' }],
    state: () => state as StationStatePayload | undefined,
    lastReadingAtMs: () => lastMs,
    freshnessMs: () => 30 * 60_000,
    buckets: () => [],
    forEachMinute: () => undefined,
  };
}

describe('forecastSummary', () => {
  const view = (parts: Partial<ForecastView>): ForecastView => ({
    source: 'open-meteo',
    available: true,
    fetched_at: '2026-06-15T12:00:00Z',
    age_minutes: 5,
    stale: false,
    min_job_minutes: 60,
    next_window: null,
    mowable_for_minutes: null,
    rain_expected_in_minutes: null,
    attribution: null,
    hours: [],
    ...parts,
  });
  const hour = (time: string, index: number | null) => ({ time, index, status: null, rain_mm: 0, rain_expected: false });

  it('is null without a forecast', () => {
    expect(forecastSummary(undefined)).toBeNull();
  });

  it("reads the window, the rain warning and the hours with an index, in the page's ISO form", () => {
    expect(
      forecastSummary(
        view({
          next_window: { start: '2026-06-15T14:00:00Z', end: '2026-06-15T17:00:00+00:00', min_index: 74 },
          rain_expected_in_minutes: 95,
          hours: [hour('2026-06-15T13:00:00Z', 60), hour('2026-06-15T14:00:00Z', 75), hour('2026-06-15T15:00:00Z', null)],
        }),
      ),
    ).toEqual({
      available: true,
      next_window: { start: '2026-06-15T14:00:00.000Z', end: '2026-06-15T17:00:00.000Z', min_index: 74 },
      rain_expected_in_minutes: 95,
      hours: [
        { time: '2026-06-15T13:00:00.000Z', index: 60 },
        { time: '2026-06-15T14:00:00.000Z', index: 75 },
      ],
    });
  });

  it('carries "not received yet" through', () => {
    expect(forecastSummary(view({ available: false, fetched_at: null }))).toEqual({
      available: false,
      next_window: null,
      rain_expected_in_minutes: null,
      hours: [],
    });
  });
});

describe('detail', () => {
  it('before any reading: no index, offline, every check not executed', () => {
    const station = detail(viewWith(undefined, null), { id: 'garden', name: 'Garden' }, 0);
    expect(station).toMatchObject({
      index: null,
      status: null,
      mowable: null,
      availability: 'offline',
      last_reading_at: null,
      forecast: null,
      error: null,
    });
    expect(station.checks.every((check) => !check.executed && check.score === null)).toBe(true);
  });

  it('a state without the required fields: the error with what is missing', () => {
    const state = {
      index_score: null,
      main_status: null,
      mowable: false,
      mowable_reason: 'no index',
      withheld_fields: { temperature: 'stale (31 min old)' },
      error: { code: 'MISSING_REQUIRED_FIELDS', message: 'Missing required field temperature.', missing: ['temperature'] },
    };
    const station = detail(viewWith(state as Partial<StationStatePayload>, 1000), { id: 'garden', name: 'Garden' }, 1000 + 31 * 60_000);
    expect(station).toMatchObject({
      availability: 'offline',
      last_reading_age_seconds: 31 * 60,
      missing_fields: ['temperature'],
      withheld_fields: { temperature: 'stale (31 min old)' },
      error: { code: 'MISSING_REQUIRED_FIELDS', message: 'Missing required field temperature.', missing: ['temperature'] },
    });
    // A state without a code (an older daemon's retained state): null, for the page's generic sentence.
    const older = { ...state, error: { message: 'Missing required field temperature.', missing: ['temperature'] } };
    expect(detail(viewWith(older as Partial<StationStatePayload>, 1000), { id: 'garden', name: 'Garden' }, 1000).error).toEqual({
      code: null,
      message: 'Missing required field temperature.',
      missing: ['temperature'],
    });
  });
  it('a modelled station: the provider status in words, its code and the last error; null for a measured one', () => {
    const modelled = {
      provider: 'open-meteo',
      status: 'provider_unreachable',
      message: 'provider unreachable since …',
      last_error: 'HTTP 503',
      failed_rounds: 2,
    };
    const station = detail(viewWith({ modelled } as unknown as Partial<StationStatePayload>, 1000), { id: 'garden', name: 'Garden' }, 1000);
    expect(station).toMatchObject({
      source_message: 'provider unreachable since …',
      source_status: 'provider_unreachable',
      source_error: 'HTTP 503',
    });
    expect(detail(viewWith(undefined, null), { id: 'garden', name: 'Garden' }, 0)).toMatchObject({
      source_message: null,
      source_status: null,
      source_error: null,
    });
  });
});

describe('summarize', () => {
  it("a silent station's topics heard: the unit's typed state as a copy, null without it", () => {
    const heard = { subscribed: 'rtl_433/+/events', seen: ['rtl_433/Bresser-6in1/12345'] };
    const summary = summarize(viewWith({ topics_heard: heard }, null), { id: 'garden', name: 'Garden' }, 1000);
    expect(summary.topics_heard).toEqual(heard);
    expect(summary.topics_heard?.seen).not.toBe(heard.seen);
    expect(summarize(viewWith({}, null), { id: 'garden', name: 'Garden' }, 1000).topics_heard).toBeNull();
  });
});
