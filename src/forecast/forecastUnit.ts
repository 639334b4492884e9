/**
 * The forecast as a station unit (src/station/unit.ts): per station with a
 * `forecast` setting, it holds the last good forecast (cached in SQLite), keeps
 * it fresh (Open-Meteo fetch loop or the station's MQTT forecast topic), and
 * answers the pipeline's hooks from memory: the state's `forecast` object, the
 * `rain_expected` hold on mowable, and the Home Assistant entities. Stations
 * without a forecast setting see no change at all.
 */
import type { Logger } from 'pino';
import { DEFAULT_LAWN, type CalculationContext, type LawnProfile, type MowerClass } from '../core/index.js';
import { MINUTE_MS } from '../core/forecastProjection.js';
import type { WindowRules } from '../core/forecastWindows.js';
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import { QuietHoursTimeline } from '../core/forecastQuietHours.js';
import type { StationConfig, StationLocation } from '../ingest/types.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { UnitRoute } from '../station/unitRoute.js';
import type { MowableHold, StationHistoryView, StationInput, StationUnit, UnitContext, UnitSubscriber } from '../station/unit.js';
import type { ClockStep } from '../util/clockWatch.js';
import { LogThrottle } from '../util/logThrottle.js';
import { FetchLoop } from './fetchLoop.js';
import { forecastEntities } from './forecastEntities.js';
import { DetailCache } from './detailCache.js';
import {
  buildForecastDetail,
  compactForecast,
  ForecastMemo,
  STALE_AFTER_INTERVALS,
  type ForecastDetail,
  type ForecastView,
} from './forecastReport.js';
import type { ForecastStore, CachedForecast, RatedForecast } from '../store/forecastStore.js';
import { projectForecast } from '../core/forecastProjection.js';
import { indexHours } from '../core/forecastWindows.js';
import { parseForecastPayload } from './mqttForecast.js';
import { connectOpenMeteo } from '../openmeteo/openMeteoClient.js';
import type { StationForecastConfig } from './forecastSettings.js';
import type { ForecastSettings } from '../config/openMeteoSettings.js';

/** A station with a forecast: where it stands, its `forecast` setting, and whether another unit's request carries it (ForecastCarrier). */
export interface ForecastStation {
  readonly id: string;
  readonly location?: StationLocation;
  readonly config: StationForecastConfig;
  /** Its Open-Meteo forecast arrives through supply() (a modelled station's or gap filling's request): no fetch loop of its own. */
  readonly carried?: boolean;
}

/** Shortest useful window when a station names none: a robot's run vs. a push mower's. */
export const DEFAULT_MIN_JOB_MINUTES: Readonly<Record<MowerClass, number>> = { robot: 90, walk: 45, ride_on: 45 };
const RETRY_BACKOFF_MS = 5000;
const LOOKBACK_MS = 14 * 24 * 60 * MINUTE_MS;

export interface ForecastUnitOptions {
  stations: readonly ForecastStation[];
  settings: Pick<ForecastSettings, 'openMeteoUrl' | 'intervalMinutes' | 'timeoutSeconds' | 'retries' | 'rainLeadMinutes'>;
  /** The cache of the last good forecast per station (src/store/forecastStore.ts), used from start() on. */
  store: ForecastStore;
  logger: Logger;
  now: () => number;
  /** The context a station calculates with (its lawn profile, the time zone). */
  contextFor: (stationId: string, nowMs: number) => CalculationContext;
  /** Quiet hours the windows and mowable_for honour (with the station's location for the night ban); absent: none. */
  quietHours?: QuietHoursSettings;
  userAgent: string;
  /** Tests: a fake fetch, a quicker back-off, a fixed jitter. */
  fetch?: typeof fetch;
  backoffMs?: number;
  random?: () => number;
}

export type ForecastCounters = {
  forecastFetches: number;
  forecastFetchErrors: number;
  forecastMessages: number;
  forecastMessagesRejected: number;
};

interface Held {
  station: ForecastStation;
  config: StationForecastConfig;
  cached?: CachedForecast;
  /** The last fetch's refused redirect (a setting to fix, forecast.openMeteoUrl), until a fetch succeeds. */
  refusedRedirect?: string | undefined;
  input?: StationInput;
  /** The hours the last build rated (./forecastReport.ts): the next build rates only the changed ones. */
  memo?: ForecastMemo;
}

export class ForecastUnit implements StationUnit {
  readonly name = 'forecast';
  readonly counters: ForecastCounters = { forecastFetches: 0, forecastFetchErrors: 0, forecastMessages: 0, forecastMessagesRejected: 0 };
  readonly #options: ForecastUnitOptions;
  readonly #held = new Map<string, Held>();
  readonly #details: DetailCache<ForecastDetail>;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #loops: FetchLoop[] = [];
  /** Quiet hours as the windows ask them: every 5 minutes of 48 hours, per rebuild (remembered, exact). */
  readonly #quiet: QuietHoursTimeline | undefined;
  #history: StationHistoryView | undefined;
  #store: ForecastStore | undefined;
  #recompute: ((stationId: string) => void) | undefined;
  /** GET /v1/stations/{id}/forecast (./forecastRoute.ts), set by the module (./forecastModule.ts). */
  routes?: readonly UnitRoute[];

  constructor(options: ForecastUnitOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'forecast' });
    this.#throttle = new LogThrottle(this.#log);
    for (const station of options.stations) this.#held.set(station.id, { station, config: station.config });
    this.#details = new DetailCache(this.#held.size);
    this.#quiet = options.quietHours && new QuietHoursTimeline(options.quietHours);
  }

  /** True once start() ran (the MQTT side is up). */
  get started(): boolean {
    return this.#history !== undefined;
  }

  get #intervalMs(): number {
    return this.#options.settings.intervalMinutes * MINUTE_MS;
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
    if (this.#held.size === 0) return;
    this.#store = this.#options.store;
    const cached = await this.#store.loadAll();
    for (const [id, held] of this.#held) {
      const row = cached.get(id);
      if (row && row.source === held.config.source) held.cached = row;
    }
    const client = connectOpenMeteo(this.#options.settings, this.#options, this.#options.backoffMs ?? RETRY_BACKOFF_MS);
    for (const held of this.#held.values()) {
      const location = held.station.location;
      // A modelled station's own request, or a station's gap filling, carries its forecast (supply() below): no second request.
      if (held.config.source !== 'open-meteo' || !location || held.station.carried) continue;
      const loop = new FetchLoop({
        stationId: held.station.id,
        location,
        client,
        intervalMs: this.#intervalMs,
        now: this.#options.now,
        random: this.#options.random ?? Math.random,
        log: this.#log,
        current: () => held.cached,
        accept: (forecast) => this.#accept(held, forecast),
        onOutcome: (outcome) => {
          this.counters.forecastFetches++;
          if (outcome.kind === 'error') this.counters.forecastFetchErrors++;
          // Shown in the state, not only in the log: the forecast stays stale until the setting is fixed.
          if (outcome.kind !== 'error' || outcome.problem === 'redirectRefused')
            held.refusedRedirect = outcome.kind === 'error' ? outcome.reason : undefined;
        },
      });
      loop.start();
      this.#loops.push(loop);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    this.#loops.length = 0;
  }

  async #accept(held: Held, forecast: CachedForecast): Promise<void> {
    held.cached = forecast;
    this.#details.invalidate(held.station.id);
    this.#recompute?.(held.station.id);
    await this.#store?.save(held.station.id, forecast);
  }

  /** An Open-Meteo forecast fetched by someone else (a modelled station's or gap filling's request, src/modelled/). */
  async supply(stationId: string, forecast: CachedForecast): Promise<void> {
    const held = this.#held.get(stationId);
    if (held?.config.source === 'open-meteo') await this.#accept(held, forecast);
  }

  /**
   * The wall clock stepped: each held forecast's fetch time moves with it, so its age stays the time
   * that really passed (a step forward does not make it stale, a step back does not keep it fresh).
   */
  clockStepped(step: ClockStep): void {
    for (const held of this.#held.values()) {
      if (!held.cached) continue;
      held.cached = { ...held.cached, fetchedAtMs: held.cached.fetchedAtMs + step.deltaMs };
      const stationId = held.station.id;
      this.#details.invalidate(stationId);
      this.#store?.save(stationId, held.cached).catch((err: unknown) => {
        this.#throttle.warn(`forecast-save:${stationId}`, { err, station: stationId }, 'forecast could not be cached in the database');
      });
    }
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#recompute = recompute;
    for (const held of this.#held.values()) {
      const topic = held.config.topic;
      if (held.config.source !== 'mqtt' || topic === undefined) continue;
      connection.subscribe(topic, (_topic, payload, retained) => this.handleMessage(held.station.id, payload, retained));
    }
  }

  /** One message on a station's forecast topic. */
  handleMessage(stationId: string, payload: Buffer, retained: boolean): void {
    const held = this.#held.get(stationId);
    if (!held) return;
    this.counters.forecastMessages++;
    const parsed = parseForecastPayload(payload);
    if (!parsed.ok) {
      this.counters.forecastMessagesRejected++;
      this.#throttle.warn(
        `forecast:${stationId}`,
        { station: stationId, topic: held.config.topic },
        `forecast message ignored: ${parsed.reason} (docs/mqtt.md, "Forecast")`,
      );
      return;
    }
    // A retained copy of what we already hold (replayed on reconnect) is not a new forecast.
    if (retained && held.cached && JSON.stringify(held.cached.hours) === JSON.stringify(parsed.hours)) return;
    this.#accept(held, { source: 'mqtt', fetchedAtMs: this.#options.now(), hours: parsed.hours, validators: {} }).catch((err: unknown) => {
      this.#throttle.warn(`forecast-save:${stationId}`, { err, station: stationId }, 'forecast could not be cached in the database');
    });
  }

  /** Remembers the input the pipeline calculates with now (the forecast's first hour starts from it). */
  extendInput(stationId: string, input: StationInput): StationInput {
    const held = this.#held.get(stationId);
    if (held) held.input = input;
    return input;
  }

  /** The detailed forecast; undefined for a station without a forecast setting. */
  detail(stationId: string, nowMs: number): ForecastDetail | undefined {
    const held = this.#held.get(stationId);
    if (!held) return undefined;
    // 48 calculations: at most once a minute per station, and on a new forecast or a change of the station's
    // fields or rain state (./detailCache.ts); the first hour may lag other values of a reading by up to a minute.
    return this.#details.get(stationId, { forecast: held.cached, nowMs, input: held.input }, () => this.#build(held, stationId, nowMs));
  }

  #build(held: Held, stationId: string, nowMs: number): ForecastDetail {
    const context = this.#options.contextFor(stationId, nowMs);
    const mowerClass = context.lawn?.mowerClass ?? DEFAULT_LAWN.mowerClass;
    return buildForecastDetail({
      source: held.config.source,
      cached: held.cached,
      nowMs,
      staleAfterMs: STALE_AFTER_INTERVALS * this.#intervalMs,
      minJobMinutes: held.config.minJobMinutes ?? DEFAULT_MIN_JOB_MINUTES[mowerClass],
      current: held.input ?? this.#history?.assemble(stationId, nowMs).input ?? {},
      observed: this.#history?.observed(stationId, nowMs - LOOKBACK_MS, nowMs) ?? [],
      context,
      rules: this.#windowRules(held.station),
      memo: (held.memo ??= new ForecastMemo()),
    });
  }

  /** When the station's forecast was fetched or received; undefined without one. */
  fetchedAtMs(stationId: string): number | undefined {
    return this.#held.get(stationId)?.cached?.fetchedAtMs;
  }

  /**
   * The station's whole forecast (seven days from Open-Meteo) rated at `nowMs`, for the week's plan: asked on the
   * planner's schedule (a new forecast, the hour), never per reading; the per-reading detail keeps its 48 hours.
   */
  rateWeek(stationId: string, nowMs: number, lawn?: Partial<LawnProfile>): RatedForecast | undefined {
    const held = this.#held.get(stationId);
    const cached = held?.cached;
    if (!held || !cached) return undefined;
    const hours = indexHours(
      projectForecast({
        nowMs,
        current: held.input ?? this.#history?.assemble(stationId, nowMs).input ?? {},
        observed: this.#history?.observed(stationId, nowMs - LOOKBACK_MS, nowMs) ?? [],
        hours: cached.hours,
        horizonHours: cached.hours.length,
      }),
      withLawn(this.#options.contextFor(stationId, nowMs), lawn),
    );
    const rules = this.#windowRules(held.station);
    const stale = nowMs - cached.fetchedAtMs > STALE_AFTER_INTERVALS * this.#intervalMs || cached.fetchedAtMs > nowMs + MINUTE_MS * 5;
    const rainLeadMinutes = this.#options.settings.rainLeadMinutes;
    return { fetchedAtMs: cached.fetchedAtMs, hours, stale, rainLeadMinutes, ...(rules.allowedAt && { allowedAt: rules.allowedAt }) };
  }

  /** Quiet hours and the rain lead for the station's windows (src/core/forecastWindows.ts). */
  #windowRules(station: ForecastStation): WindowRules {
    const quiet = this.#quiet;
    const rules: WindowRules = { rainLeadMinutes: this.#options.settings.rainLeadMinutes };
    if (quiet) {
      rules.allowedAt = (ms) => quiet.allowedAt(ms, station.location);
      // Asked once per stretch with the same cause, not at both ends of every 5-minute step of 48 hours.
      rules.allowedUntil = (ms) => {
        const { cause, untilMs } = quiet.causeUntil(ms, station.location);
        return { allowed: cause === undefined, untilMs };
      };
    }
    return rules;
  }

  stateFragment(stationId: string, nowMs: number): { forecast?: ForecastView; forecast_problem?: string } | undefined {
    const detail = this.detail(stationId, nowMs);
    const held = this.#held.get(stationId);
    const problem = held?.refusedRedirect;
    if (!detail) return problem === undefined ? undefined : { forecast_problem: problem };
    const forecast = compactForecast(detail, held?.memo);
    return problem === undefined ? { forecast } : { forecast, forecast_problem: problem };
  }

  mowableHold(stationId: string, nowMs: number): MowableHold | undefined {
    const lead = this.#options.settings.rainLeadMinutes;
    const detail = lead > 0 ? this.detail(stationId, nowMs) : undefined;
    const minutes = detail?.rain_expected_in_minutes;
    if (!detail || detail.stale || minutes === null || minutes === undefined || minutes > lead) return undefined;
    return {
      code: 'rain_expected',
      reason: {
        en: minutes === 0 ? 'rain is expected now (forecast)' : `rain is expected in ${minutes} min (forecast)`,
        de: minutes === 0 ? 'Regen jetzt erwartet (Vorhersage)' : `Regen in ${minutes} Min. erwartet (Vorhersage)`,
      },
    };
  }

  entities(station: StationConfig): EntitySpec[] {
    return this.#held.has(station.id) ? forecastEntities() : [];
  }

  stats(): Readonly<ForecastCounters> {
    return this.counters;
  }
}

/** The context with a lawn's own profile keys over the station's. */
function withLawn(context: CalculationContext, lawn: Partial<LawnProfile> | undefined): CalculationContext {
  return lawn === undefined || Object.keys(lawn).length === 0 ? context : { ...context, lawn: { ...context.lawn, ...lawn } };
}

/** The state key this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The forecast's view: windows, rain expected, hours (src/forecast/forecastReport.ts). */
    forecast: ForecastView;
    /** Why the forecast cannot be fetched when it is a setting to fix: a refused redirect (forecast.openMeteoUrl). */
    forecast_problem: string;
  }
}
