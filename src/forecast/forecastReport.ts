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
 * (src/core/forecastWindows.ts, HourIndexMemo), each rated hour's rendering and its compact form, and the
 * ISO texts of its instants, so an hour whose input did not change is neither calculated nor rendered
 * again. The detail and its compact form are the same as a fresh build's.
 */
export class ForecastMemo {
  readonly projection: ForecastProjectionMemo = new ProjectionMemo();
  readonly hours = new HourIndexMemo();
  readonly #views = new WeakMap<HourIndex, HourDetail>();
  readonly #compactHours = new WeakMap<HourDetail, CompactHour>();
  #compacted: { detail: ForecastDetail; view: ForecastView } | undefined;
  // Figure: the 96 instants of a 48-hour build, 70 µs by toISOString against 1.9 µs kept (2026-12-02, micro-measure, same run).
  readonly #isoTexts = new Map<number, string>();

  view(hour: HourIndex): HourDetail {
    let view = this.#views.get(hour);
    if (view === undefined) {
      view = hourDetail(hour, this.iso);
      this.#views.set(hour, view);
    }
    return view;
  }

  /** The ISO text of an instant written lately (whole hours recur from build to build); strings cannot be changed. */
  readonly iso = (ms: number): string => {
    let text = this.#isoTexts.get(ms);
    if (text === undefined) {
      text = isoText(ms);
      if (this.#isoTexts.size >= ISO_TEXTS_KEPT) this.#isoTexts.clear();
      this.#isoTexts.set(ms, text);
    }
    return text;
  };

  /** The station's current detail's compact form, made once; each hour's compact form and text, made once per hour. */
  // Figure: a 48-hour detail's compact form per state, 67 µs made afresh against 0.03 µs kept (2026-12-02, micro-measure, same run).
  compact(detail: ForecastDetail): ForecastView {
    if (this.#compacted?.detail === detail) return this.#compacted.view;
    const view = compactDetail(detail, (hour) => {
      let compact = this.#compactHours.get(hour);
      if (compact === undefined) {
        compact = compactHour(hour);
        this.#compactHours.set(hour, compact);
      }
      return compact;
    });
    this.#compacted = { detail, view };
    return view;
  }
}

/** Instants one station's builds write: a 48-hour window's hour boundaries and windows, with room for a day's turnover. */
const ISO_TEXTS_KEPT = 256;

const isoText = (ms: number): string => new Date(ms).toISOString();

const windowView = (window: ForecastWindow, iso: (ms: number) => string): WindowView => ({
  start: iso(window.startMs),
  end: iso(window.endMs),
  min_index: window.minIndex,
});

function hourDetail(hour: HourIndex, iso: (ms: number) => string): HourDetail {
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
  const iso = memo?.iso ?? isoText;
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
    next_window: summary.nextWindow ? windowView(summary.nextWindow, iso) : null,
    // Never reached (no internet, provider down since the start): unknown, not "0 minutes".
    mowable_for_minutes: cached ? summary.mowableForMinutes : null,
    rain_expected_in_minutes: summary.rainExpectedInMinutes,
    attribution: request.source === 'open-meteo' ? OPEN_METEO_ATTRIBUTION : null,
    windows: summary.windows.map((window) => windowView(window, iso)),
    hours: hours.map((hour) => (memo ? memo.view(hour) : hourDetail(hour, iso))),
  };
}

/**
 * A detail's compact form: the state's `forecast` member on every reading until the next rebuild, serialised once
 * (src/station/stateText.ts) and spliced into each state's text. Its text is put together from each hour's text,
 * kept with the hour by the station's ForecastMemo: a rebuild that takes most hours over serialises only the new
 * ones (bench/NOTES.md, "Forecast part: the 108 CPU-s attributed"). Without a memo it is made afresh.
 */
export function compactForecast(detail: ForecastDetail, memo?: ForecastMemo): ForecastView {
  return memo ? memo.compact(detail) : compactDetail(detail, compactHour);
}

interface CompactHour {
  view: HourView;
  /** JSON.stringify(view). */
  text: string;
}

function compactHour(hour: HourDetail): CompactHour {
  const { time, index, status, rain_mm, rain_expected } = hour;
  const view: HourView = { time, index, status, rain_mm, rain_expected };
  return { view, text: JSON.stringify(view) };
}

function compactDetail(detail: ForecastDetail, hourOf: (hour: HourDetail) => CompactHour): ForecastView {
  const { windows: _windows, hours, ...rest } = detail;
  const compact = hours.map(hourOf);
  // JSON.stringify of { ...rest, hours }: rest's members, then "hours" (an array's text is its items' texts joined by commas).
  const restText = JSON.stringify(rest);
  const text = `${restText === '{}' ? '{' : `${restText.slice(0, -1)},`}"hours":[${compact.map((hour) => hour.text).join(',')}]}`;
  return fixedJson({ ...rest, hours: compact.map((hour) => hour.view) }, text);
}
