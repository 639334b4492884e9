/**
 * What the status page's endpoints read about the stations (StationsView),
 * the daemon's implementation of it over the station side's states and the
 * chart recorder (src/station/chartRecorder.ts), and the pure shaping of a
 * station's state into the endpoints' objects. Reading never changes
 * anything: the recorder is fed by the pipeline, not by a request.
 */
import { CHECK_NAMES } from '../core/index.js';
import type { BucketRow } from '../history/stationHistory.js';
import { MODELLED_FORMAT, unitSliceOf, type StationConfig } from '../ingest/types.js';
import { stationLawns, type LawnConfig } from '../lawn/lawnsConfig.js';
import { PUBLIC_REASON_KEY, type StationStatePayload } from '../station/statePayload.js';
import type { ChartSeries, RecordedMinute } from '../station/chartRecorder.js';
import { dataGaps, type DataGaps } from './dataGaps.js';
import { lawnMowerSummaries, mowerSummary, type LawnMowerSummary, type MowerSummary } from './mowerSummary.js';
import { planNotifySummary, planSummary, type LawnListing, type PlanNotifySummary } from './planView.js';

/** A configured station as the page lists it; `origin` "modelled": readings from a weather model (format "open-meteo"). */
export interface StationListing {
  id: string;
  name: string;
  origin?: Origin;
  /** The lawns the station serves (./planView.ts); omitted: one lawn with the station's id and name. */
  lawns?: readonly LawnListing[];
}
export type Origin = 'measured' | 'modelled';

/** Read-only station data for the status page routes. */
export interface StationsView {
  stations(): ReadonlyArray<StationListing>;
  /** The last state computed for the station (undefined before the first calculation). */
  state(stationId: string): StationStatePayload | undefined;
  lastReadingAtMs(stationId: string): number | null;
  /** How old the last reading may be before the station counts as offline (its freshness limit). */
  freshnessMs(stationId: string): number;
  buckets(stationId: string, fromMs: number, toMs: number): readonly BucketRow[];
  forEachMinute(stationId: string, fromMinute: number, toMinute: number, visit: RecordedMinute): void;
}

/** No stations (none configured, or a test of other routes): the page says so. */
export const NO_STATIONS: StationsView = {
  stations: () => [],
  state: () => undefined,
  lastReadingAtMs: () => null,
  freshnessMs: () => 0,
  buckets: () => [],
  forEachMinute: () => undefined,
};

export interface StationsViewDeps {
  stations: readonly StationConfig[];
  freshnessMs(station: StationConfig): number;
  /** The station side's last computed state (undefined before the first). */
  stateOf(stationId: string): StationStatePayload | undefined;
  /** The chart series the pipeline records (src/station/chartRecorder.ts), read only. */
  series: ChartSeries;
}

export function createStationsView(deps: StationsViewDeps): StationsView {
  const byId = new Map(deps.stations.map((station) => [station.id, station]));
  // The station key `lawns` was validated when the configuration loaded (src/lawn/lawnsConfig.ts).
  const listings: StationListing[] = deps.stations.map((station) => ({
    id: station.id,
    name: station.name,
    origin: station.format === MODELLED_FORMAT ? 'modelled' : 'measured',
    lawns: stationLawns({ ...station, lawns: unitSliceOf(station, 'lawns') as LawnConfig[] | undefined }).map(({ id, name }) => ({
      id,
      name,
    })),
  }));
  return {
    stations: () => listings,
    state: (stationId) => deps.stateOf(stationId),
    lastReadingAtMs: (stationId) => deps.series.history?.lastReadingAtMs(stationId) ?? null,
    freshnessMs: (stationId) => {
      const station = byId.get(stationId);
      return station ? deps.freshnessMs(station) : 0;
    },
    buckets: (stationId, fromMs, toMs) => deps.series.history?.buckets(stationId, fromMs, toMs) ?? [],
    forEachMinute: (stationId, fromMinute, toMinute, visit) => deps.series.forEachMinute(stationId, fromMinute, toMinute, visit),
  };
}

export type Availability = 'online' | 'offline';

export interface StationSummary {
  id: string;
  name: string;
  index: number | null;
  status: string | null;
  mowable: boolean | null;
  mowable_reason: string | null;
  /** The same in German (state `mowable_reason_de`), for the German page. */
  mowable_reason_de: string | null;
  last_reading_at: string | null;
  last_reading_age_seconds: number | null;
  availability: Availability;
  origin: Origin;
  /** A silent station's filter and the topics the embedded broker saw near it (state `topics_heard`, src/station/topicsHeard.ts), or null. */
  topics_heard: { subscribed: string; seen: string[] } | null;
  /** Why the forecast cannot be fetched when it is a setting to fix (state `forecast_problem`, src/forecast/forecastUnit.ts), or null; on the open page too: it names a setting and a redirect's host, nothing that locates the station or a secret. */
  forecast_problem: string | null;
  /** The plan notifications (state `plan.notify`), or null without them: `mowability status` says when they fail. */
  plan_notify: PlanNotifySummary | null;
}

export interface CheckSummary {
  name: string;
  executed: boolean;
  status: string | null;
  score: number | null;
  reasons: string[];
  skipped_reason: string | null;
}

export interface ForecastSummary {
  /** False while no forecast has been received (the provider was never reached). */
  available: boolean;
  next_window: { start: string; end: string; min_index: number | null } | null;
  rain_expected_in_minutes: number | null;
  hours: Array<{ time: string; index: number }>;
}

export interface StationDetail extends StationSummary {
  data_quality: string | null;
  missing_fields: string[];
  withheld_fields: Record<string, string>;
  /** The missing fields grouped by why they are missing, for one sentence in the page's language (./dataGaps.ts). */
  data_gaps: DataGaps;
  limiting_check: string | null;
  checks: CheckSummary[];
  /** `code` says why for a sentence in the page's language (MISSING_REQUIRED_FIELDS, src/core/types.ts); `message` is the English one. */
  error: { code: string | null; message: string; missing: string[] } | null;
  forecast: ForecastSummary | null;
  /** The station unit's `last_upload_refused` (src/station/uploadRefusals.ts), or null. */
  last_upload_refused: { at: string; protocol: string; outcome: string; reason: string; count: number } | null;
  /** A modelled station's provider status in words (state `modelled.message`); null for measured stations. */
  source_message: string | null;
  /** The code of `source_message` (state `modelled.status`: waiting, ok, no_data_provider_unreachable, provider_unreachable), for a sentence in the page's language. */
  source_status: string | null;
  /** The provider's last error (state `modelled.last_error`), a technical detail in English; null when none. */
  source_error: string | null;
  /** Since when a modelled station's provider has not answered (ISO), or null. */
  source_since: string | null;
  /** Where the rain comes from: a modelled station's and a broken gauge's (gapFill.rain "model") from the model. */
  rain_source: 'gauge' | 'model' | null;
  /** The mower control's status and runs (./mowerSummary.ts), or null without an enabled control. */
  mower: MowerSummary | null;
  /** Every lawn's mower control, the first lawn's (`mower`) first (./mowerSummary.ts); empty without one. */
  lawn_mowers: LawnMowerSummary[];
  /** The week plan of the station's lawns (./planView.ts), or null without a planner. */
  plan: ReturnType<typeof planSummary>;
}

const isoTime = (value: unknown): string | null =>
  typeof value === 'string' && Number.isFinite(Date.parse(value)) ? new Date(Date.parse(value)).toISOString() : null;

/**
 * `open`: for the open status page, which anyone who reaches the port reads: `mowable_reason` is the
 * hold's public reason where it has one (no sunset/sunrise times, which would locate the station).
 */
export function summarize(view: StationsView, station: StationListing, nowMs: number, open = false): StationSummary {
  const state = view.state(station.id);
  const lastMs = view.lastReadingAtMs(station.id);
  const online = lastMs !== null && nowMs - lastMs <= view.freshnessMs(station.id);
  return {
    id: station.id,
    name: station.name,
    index: state?.index_score ?? null,
    status: state?.main_status ?? null,
    mowable: state?.mowable ?? null,
    mowable_reason: (open ? state?.[PUBLIC_REASON_KEY] : undefined) ?? state?.mowable_reason ?? null,
    mowable_reason_de: (open ? state?.[`${PUBLIC_REASON_KEY}_de`] : undefined) ?? state?.mowable_reason_de ?? state?.mowable_reason ?? null,
    last_reading_at: lastMs === null ? null : new Date(lastMs).toISOString(),
    last_reading_age_seconds: lastMs === null ? null : Math.max(0, Math.round((nowMs - lastMs) / 1000)),
    availability: online ? 'online' : 'offline',
    origin: station.origin ?? 'measured',
    topics_heard: topicsHeard(state?.topics_heard),
    forecast_problem: state?.forecast_problem ?? null,
    plan_notify: planNotifySummary(state, open),
  };
}

/** The topics-heard unit's typed state (`topics_heard`, src/station/topicsHeard.ts), as a copy; null when absent. */
function topicsHeard(heard: StationStatePayload['topics_heard']): StationSummary['topics_heard'] {
  return heard ? { subscribed: heard.subscribed, seen: [...heard.seen] } : null;
}

/** The core's five checks, each as the page lists it (a check the state lacks: not executed). */
function checkSummaries(checks: StationStatePayload['checks']): CheckSummary[] {
  return CHECK_NAMES.map((name) => {
    const check = checks?.[name];
    return {
      name,
      executed: check?.executed === true,
      status: check?.status ?? null,
      score: check?.score ?? null,
      reasons: check?.reasons ?? [],
      skipped_reason: check?.skipped_reason ?? null,
    };
  });
}

/** At most 14 days of forecast hours on the page. */
const MAX_SUMMARY_HOURS = 14 * 24;

type ForecastHourView = NonNullable<StationStatePayload['forecast']>['hours'][number];

/**
 * Each forecast hour's page entry, kept with the hour object it was made from. The forecast unit
 * hands the same hour object to every state until that hour changes (its compact form and JSON text
 * are kept with it, src/forecast/forecastReport.ts), and a kept hour is never changed, so its entry
 * is too: a poll then writes no ISO text (two Date.parse and a toISOString per hour, 48 hours per
 * poll) for the hours a rebuild took over. bench/NOTES.md, "A household day's minute, forecast and
 * page work".
 */
const hourSummaries = new WeakMap<ForecastHourView, { time: string; index: number } | null>();

function hourSummary(hour: ForecastHourView): { time: string; index: number } | null {
  let summary = hourSummaries.get(hour);
  if (summary === undefined) {
    const time = isoTime(hour.time);
    summary = time !== null && hour.index !== null ? { time, index: hour.index } : null;
    hourSummaries.set(hour, summary);
  }
  return summary;
}

/** The page's summary of the forecast unit's typed state (`forecast`, typed by the unit's StationStateFields): at most 14 days of hours with an index. */
export function forecastSummary(forecast: StationStatePayload['forecast']): ForecastSummary | null {
  if (forecast === undefined) return null;
  const window = forecast.next_window;
  const start = isoTime(window?.start);
  const end = isoTime(window?.end);
  const hours: Array<{ time: string; index: number }> = [];
  for (const hour of forecast.hours) {
    const summary = hourSummary(hour);
    if (summary !== null) hours.push(summary);
    if (hours.length === MAX_SUMMARY_HOURS) break;
  }
  return {
    available: forecast.available,
    next_window: start !== null && end !== null ? { start, end, min_index: window?.min_index ?? null } : null,
    rain_expected_in_minutes: forecast.rain_expected_in_minutes,
    hours,
  };
}

export function detail(view: StationsView, station: StationListing, nowMs: number, open = false): StationDetail {
  const summary = summarize(view, station, nowMs, open);
  const state = view.state(station.id);
  const error = state?.error;
  const missing = state?.missing_fields ?? error?.missing ?? [];
  const withheld = Object.fromEntries(
    Object.entries(state?.withheld_fields ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    ...summary,
    data_quality: state?.data_quality ?? null,
    missing_fields: [...missing],
    withheld_fields: withheld,
    data_gaps: dataGaps(missing, withheld, state?.history_coverage ?? {}, state?.last_reading_at != null),
    limiting_check: state?.score_basis?.limiting_check ?? null,
    checks: checkSummaries(state?.checks),
    error: error ? { code: error.code ?? null, message: error.message, missing: [...error.missing] } : null,
    forecast: forecastSummary(state?.forecast),
    last_upload_refused: lastUploadRefused(state?.last_upload_refused),
    source_message: state?.modelled?.message ?? null,
    source_status: state?.modelled?.status ?? null,
    source_error: state?.modelled?.last_error ?? null,
    source_since: state?.modelled?.failing_since ?? null,
    rain_source: summary.origin === 'modelled' || state?.rain_source === 'model' ? 'model' : state ? 'gauge' : null,
    mower: mowerSummary(state?.mower_control, open),
    lawn_mowers: lawnMowerSummaries(state, station.lawns ?? [{ id: station.id, name: station.name }], open),
    plan: planSummary(view, station, open),
  };
}

/** The upload refusals' typed state (`last_upload_refused`, src/station/uploadRefusals.ts), its time as the page's ISO form; null when absent. */
export function lastUploadRefused(refused: StationStatePayload['last_upload_refused']): StationDetail['last_upload_refused'] {
  const at = isoTime(refused?.at);
  if (refused === undefined || at === null) return null;
  return { at, protocol: refused.protocol, outcome: refused.outcome, reason: refused.reason, count: refused.count };
}
