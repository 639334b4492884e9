/**
 * What a station's forecast looks like to users: the `forecast` object of the
 * retained state (compact: windows and the hourly indexes) and the body of
 * GET /v1/stations/{id}/forecast (each hour's projected input and where every
 * value came from). Built from the core's projection, index and windows.
 */
import type { CalculationContext } from '../core/index.js';
import { projectForecast, type ForecastProjectionMemo, type ProjectionRequest } from '../core/forecastProjection.js';
import { ProjectionMemo } from '../core/forecastSlots.js';
import {
  HourIndexMemo,
  indexHours,
  summarizeForecast,
  type ForecastWindow,
  type HourIndex,
  type WindowRules,
} from '../core/forecastWindows.js';
import { MAX_FUTURE_SKEW_MS } from '../ingest/time.js';
import type { StationInput } from '../station/unit.js';
import { OPEN_METEO_ATTRIBUTION } from '../openmeteo/openMeteoResponse.js';
import type { CachedForecast, ForecastSourceKind } from '../store/forecastStore.js';
import { fixedJson } from '../station/stateText.js';

/** A station's forecast now, or why there is none (GET /v1/stations/{id}/forecast, ./forecastRoute.ts). */
export type ForecastSource = (stationId: string, nowMs: number) => ForecastDetail | 'unknown_station' | 'not_configured' | 'unavailable';

/** A forecast older than this many fetch intervals is stale: shown, but not used for mowable. */
export const STALE_AFTER_INTERVALS = 3;

export interface WindowView {
  start: string;
  end: string;
  min_index: number;
}

export interface HourView {
  time: string;
  index: number | null;
  status: string | null;
  rain_mm: number;
  rain_expected: boolean;
}

export interface HourDetail extends HourView {
  end: string;
  limiting_check: string | null;
  input: Record<string, number>;
  input_source: Record<string, string>;
}

export interface ForecastView {
  source: ForecastSourceKind;
  /** False until a forecast has been fetched or received: then nothing below is known (null, not 0). */
  available: boolean;
  fetched_at: string | null;
  age_minutes: number | null;
  stale: boolean;
  min_job_minutes: number;
  next_window: WindowView | null;
  /** null while no forecast has arrived (unknown). */
  mowable_for_minutes: number | null;
  rain_expected_in_minutes: number | null;
  attribution: string | null;
  hours: HourView[];
}

export interface ForecastDetail extends Omit<ForecastView, 'hours'> {
  windows: WindowView[];
  hours: HourDetail[];
}

export interface ReportRequest {
  source: ForecastSourceKind;
  cached: CachedForecast | undefined;
  nowMs: number;
  staleAfterMs: number;
  minJobMinutes: number;
  current: StationInput;
  observed: ProjectionRequest['observed'];
  context: CalculationContext;
  /** Quiet hours and the rain lead (src/core/forecastWindows.ts); absent: the index alone. */
  rules?: WindowRules;
  /** The station's previous build: unchanged hours are taken over, not rated and rendered again. */
  memo?: ForecastMemo;
}

/**
 * What one station's builds keep for the next (bench/NOTES.md, "Forecast part"): the projection's sorted
 * hours and projected hours (src/core/forecastSlots.ts), the rated hours
 * (src/core/forecastWindows.ts, HourIndexMemo) and each rated hour's rendering, so an hour whose input
 * did not change is neither calculated nor rendered again. The detail is the same as a fresh build's.
 */
export class ForecastMemo {
  readonly projection: ForecastProjectionMemo = new ProjectionMemo();
  readonly hours = new HourIndexMemo();
  readonly #views = new WeakMap<HourIndex, HourDetail>();

  view(hour: HourIndex): HourDetail {
    let view = this.#views.get(hour);
    if (view === undefined) {
      view = hourDetail(hour);
      this.#views.set(hour, view);
    }
    return view;
  }
}

/** ISO texts of the instants written lately (whole hours recur from build to build); strings cannot be changed. */
const isoTexts = new Map<number, string>();
const ISO_TEXTS_KEPT = 512;

function iso(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoTexts.size >= ISO_TEXTS_KEPT) isoTexts.clear();
    isoTexts.set(ms, text);
  }
  return text;
}

const windowView = (window: ForecastWindow): WindowView => ({
  start: iso(window.startMs),
  end: iso(window.endMs),
  min_index: window.minIndex,
});

function hourDetail(hour: HourIndex): HourDetail {
  return {
    time: iso(hour.startMs),
    index: hour.index,
    status: hour.status,
    rain_mm: hour.expectedRainMm,
    rain_expected: hour.rainExpected,
    end: iso(hour.endMs),
    limiting_check: hour.limitingCheck,
    input: { ...hour.input },
    input_source: { ...hour.inputSource },
  };
}

/** The detailed report; `compact()` turns it into the state's object. */
export function buildForecastDetail(request: ReportRequest): ForecastDetail {
  const { cached, nowMs } = request;
  const { memo } = request;
  const hours = cached
    ? indexHours(
        projectForecast({ nowMs, current: request.current, observed: request.observed, hours: cached.hours }, memo?.projection),
        request.context,
        memo?.hours,
      )
    : [];
  const summary = summarizeForecast(hours, nowMs, request.minJobMinutes, request.rules);
  const ageMs = cached ? Math.max(0, nowMs - cached.fetchedAtMs) : null;
  // Fetched "later than now" (a cache from before the clock stepped back, read after a restart): its age is unknown, never fresh.
  const future = cached !== undefined && cached.fetchedAtMs > nowMs + MAX_FUTURE_SKEW_MS;
  return {
    source: request.source,
    available: cached !== undefined,
    fetched_at: cached ? iso(cached.fetchedAtMs) : null,
    age_minutes: ageMs === null ? null : Math.floor(ageMs / 60_000),
    stale: ageMs === null || future || ageMs > request.staleAfterMs,
    min_job_minutes: request.minJobMinutes,
    next_window: summary.nextWindow ? windowView(summary.nextWindow) : null,
    // Never reached (no internet, provider down since the start): unknown, not "0 minutes".
    mowable_for_minutes: cached ? summary.mowableForMinutes : null,
    rain_expected_in_minutes: summary.rainExpectedInMinutes,
    attribution: request.source === 'open-meteo' ? OPEN_METEO_ATTRIBUTION : null,
    windows: summary.windows.map(windowView),
    hours: hours.map((hour) => (memo ? memo.view(hour) : hourDetail(hour))),
  };
}

/**
 * A detail's compact form, and each hour's: made once per detail and hour (both are never changed after the build).
 * The compact form is the state's `forecast` member on every reading until the next rebuild: serialised once
 * (src/station/stateText.ts) and spliced into each state's text. Its text is put together from each hour's text,
 * kept with the hour: a rebuild that takes most hours over serialises only the new ones (bench/NOTES.md,
 * "Forecast part: the 108 CPU-s attributed").
 */
const compacted = new WeakMap<ForecastDetail, ForecastView>();
const compactHours = new WeakMap<HourDetail, CompactHour>();

interface CompactHour {
  view: HourView;
  /** JSON.stringify(view). */
  text: string;
}

function compactHour(hour: HourDetail): CompactHour {
  let compact = compactHours.get(hour);
  if (compact === undefined) {
    const { time, index, status, rain_mm, rain_expected } = hour;
    const view: HourView = { time, index, status, rain_mm, rain_expected };
    compact = { view, text: JSON.stringify(view) };
    compactHours.set(hour, compact);
  }
  return compact;
}

export function compactForecast(detail: ForecastDetail): ForecastView {
  let view = compacted.get(detail);
  if (view === undefined) {
    const { windows: _windows, hours, ...rest } = detail;
    const compact = hours.map(compactHour);
    // JSON.stringify of { ...rest, hours }: rest's members, then "hours" (an array's text is its items' texts joined by commas).
    const restText = JSON.stringify(rest);
    const text = `${restText === '{}' ? '{' : `${restText.slice(0, -1)},`}"hours":[${compact.map((hour) => hour.text).join(',')}]}`;
    view = fixedJson({ ...rest, hours: compact.map((hour) => hour.view) }, text);
    compacted.set(detail, view);
  }
  return view;
}
