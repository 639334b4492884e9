/**
 * Gap filling (station setting `gapFill: {"source": "open-meteo"}`): a real station's fields it
 * does not measure (soil moisture, soil temperature, radiation, gusts) filled from Open-Meteo's
 * current conditions at its location. A field the station has ever reported since start (or that
 * its history holds) is never filled, fresh or stale: a measurement always wins. Rain is never
 * filled: the station's gauge decides. Soil moisture has one precedence (docs/model.md, "Gap
 * filling"): the sensor, then the lawn memory's water balance once it has spun up (this unit runs
 * after it and fills only what is still missing), then the model. Filled fields are listed in the
 * state's `estimated_fields` and `derived_fields`; the checks they decide say "modelliert".
 *
 * With `gapFill.rain: "model"` (a gauge known broken) the station's own rain is left out at
 * ingest (src/station/stationIngest.ts) and the model's hourly rain of the hours the history
 * lacks, and its current rate, enter the station's history through `acceptReading` instead: rain
 * windows from the model, the state's `rain_source` "model". A station whose forecast is
 * Open-Meteo's gets it from the same request (hourly forecast variables beside the current
 * conditions), so gap filling and the forecast cost one request per round, not two.
 */
import type { Logger } from 'pino';
import { connectOpenMeteo, type BodyParser, type OpenMeteoClient } from '../openmeteo/openMeteoClient.js';
import { parseModelledAnswer } from '../ingest/formats/openMeteo.js';
import {
  GAP_FILL_FIELDS,
  type CurrentField,
  type GapFillField,
  type RainSource,
  type Reading,
  type StationLocation,
} from '../ingest/types.js';
import type { AcceptReading } from '../station/facade.js';
import { MINUTE_MS } from '../history/windows.js';
import type { TimedReading } from '../history/stationHistory.js';
import type { StationHistoryView, StationInput, StationUnit, UnitContext } from '../station/unit.js';
import type { CachedForecast } from '../store/forecastStore.js';
import { ModelledLoop, type RoundResult } from './modelledLoop.js';
import { currentUrl, modelledUrl, pastSpan } from './modelledRequest.js';
import {
  acceptAll,
  lastObservedMs,
  newHours,
  parserAt,
  runRound,
  type Delivered,
  type Parsed,
  type RoundMemory,
  type RoundPlan,
} from './modelledRound.js';
import type { ModelledSettings, ModelledStationConfig } from './modelledUnit.js';

/** Past hours asked for when only the forecast shares the request (its own request's two, and the hour now). */
const FORECAST_PAST = { pastHours: 3 };
const NO_CURRENT = 'the answer has no "current" conditions';

/** A modelled current value older than this is not used (two missed rounds at 15 min and slack). */
export const GAP_FILL_MAX_AGE_MS = 45 * MINUTE_MS;

export interface GapFillOptions {
  stations: readonly ModelledStationConfig[];
  settings: ModelledSettings;
  logger: Logger;
  now: () => number;
  userAgent: string;
  /** The pipeline's acceptReading: the model's rain for stations with `gapFill.rain` "model". */
  accept?: AcceptReading;
  /** The forecast unit's supply(): the forecast of a station whose forecast is Open-Meteo's, from the same request. */
  supplyForecast?: (stationId: string, forecast: CachedForecast) => Promise<void>;
  /** Whether the station's Open-Meteo forecast rides on its gap filling's request (asked at start: the forecast says so once built). */
  carriesForecast?: (stationId: string) => boolean;
  fetch?: typeof fetch;
  retryBackoffMs?: number;
  roundBackoffMs?: number;
  random?: () => number;
}

interface Filled {
  station: ModelledStationConfig & { location: StationLocation };
  fields: readonly GapFillField[];
  measured: Set<CurrentField>;
  /** The model's rain replaces the gauge's. */
  modelRain: boolean;
  current?: { values: Reading['values']; timeMs: number };
  lastFilled: GapFillField[];
  /** An answer kept while the pipeline was not running (no conditional requests: validators stay empty). */
  memory: RoundMemory;
  failures: number;
  lastError?: string;
}

export type GapFillCounters = { gapFillFetches: number; gapFillFetchErrors: number };

export class GapFillUnit implements StationUnit {
  readonly name = 'gap-fill';
  readonly counters: GapFillCounters = { gapFillFetches: 0, gapFillFetchErrors: 0 };
  readonly #options: GapFillOptions;
  readonly #held = new Map<string, Filled>();
  readonly #loops: ModelledLoop[] = [];
  readonly #log: Logger;
  #history: StationHistoryView | undefined;

  constructor(options: GapFillOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'gap-fill' });
    for (const station of options.stations) {
      if (!station.gapFill || !station.location) continue;
      this.#held.set(station.id, {
        station: { ...station, location: station.location },
        fields: station.gapFill.fields ?? GAP_FILL_FIELDS,
        measured: new Set(),
        lastFilled: [],
        memory: { validators: {} },
        failures: 0,
        modelRain: station.gapFill.rain === 'model' && options.accept !== undefined,
      });
    }
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
    if (this.#held.size === 0) return;
    const { settings } = this.#options;
    const client = connectOpenMeteo(settings, this.#options, this.#options.retryBackoffMs ?? 5000);
    const intervalMs = settings.intervalMinutes * MINUTE_MS;
    for (const held of this.#held.values()) {
      this.#seedMeasured(held, context.history);
      this.#log.info(
        { station: held.station.id },
        `station "${held.station.id}": fields it does not measure among ${held.fields.join(', ')} are filled from Open-Meteo's current conditions every ${settings.intervalMinutes} min`,
      );
      const plan = this.#plan(held, client.baseUrl);
      const loop = new ModelledLoop({
        intervalMs,
        backoffMs: Math.min(intervalMs, this.#options.roundBackoffMs ?? 30_000),
        random: this.#options.random ?? Math.random,
        round: (signal) => this.#round(client, plan, held, signal),
      });
      loop.start();
      this.#loops.push(loop);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    this.#loops.length = 0;
  }

  #carriesForecast(held: Filled): boolean {
    return this.#options.carriesForecast?.(held.station.id) === true;
  }

  /** What the restored history holds (fresh or stale) was measured. */
  #seedMeasured(held: Filled, history: StationHistoryView): void {
    const assembly = history.assemble(held.station.id, this.#options.now());
    for (const field of held.fields)
      if (assembly.input[field] !== undefined || assembly.withheld[field] !== undefined) held.measured.add(field);
  }

  /** The station's round (shared with modelled stations, ./modelledRound.ts): the request, and what is done with its answer. */
  #plan(held: Filled, baseUrl: string): RoundPlan {
    return {
      conditional: false,
      request: (nowMs) => this.#request(held, baseUrl, nowMs),
      deliver: (parsed, nowMs) => this.#deliver(held, parsed, nowMs),
    };
  }

  /** One request: the current conditions, and the hourly part when the model's rain or the forecast rides on it. */
  #request(held: Filled, baseUrl: string, nowMs: number): { url: string; parse: BodyParser<Parsed> } {
    const { id, location } = held.station;
    const hourly = held.modelRain || this.#carriesForecast(held);
    const span = held.modelRain && this.#history ? pastSpan(lastObservedMs(this.#history, id, nowMs), nowMs) : FORECAST_PAST;
    const parse: BodyParser<Parsed> = hourly
      ? parserAt(nowMs)
      : (body) => {
          const parsed = parseModelledAnswer(body, nowMs);
          return parsed.ok ? { ok: true, value: { answer: parsed.answer, forecast: [] } } : parsed;
        };
    return {
      url: hourly ? modelledUrl(baseUrl, location, span) : currentUrl(baseUrl, location),
      parse: (body) => {
        const parsed = parse(body);
        return parsed.ok && !parsed.value.answer.current ? { ok: false, reason: NO_CURRENT } : parsed;
      },
    };
  }

  /**
   * The current conditions for the fields, the model's rain into the station's history (rain only:
   * the station measures the rest), and the forecast. 'not_running': a first round can answer before
   * the pipeline runs; the shared round keeps the answer and hands it in again a second later, so
   * the station has the model's rain at once, not after a whole interval, and no second request.
   */
  async #deliver(held: Filled, parsed: Parsed, nowMs: number): Promise<Delivered> {
    const { id } = held.station;
    const current = parsed.answer.current!;
    held.current = { values: current.values, timeMs: Math.min(current.payloadTimeMs ?? nowMs, nowMs) };
    let delivered: Delivered = { kind: 'ok', accepted: 0, rejected: 0 };
    if (held.modelRain && this.#options.accept && this.#history) {
      const hours = newHours(this.#history, id, parsed.answer, nowMs).filter((hour) => hour.rainDeltaMm !== undefined);
      const rate = current.values.precipitation_rate;
      const rateNow = rate === undefined ? [] : [rainOnly(current, { precipitation_rate: rate })];
      delivered = acceptAll(this.#options.accept, id, [...hours.map((hour) => rainOnly(hour, {})), ...rateNow]);
      if (delivered.kind === 'not_running') return delivered;
    }
    if (this.#carriesForecast(held) && parsed.forecast.length > 0) {
      await this.#options.supplyForecast?.(id, {
        source: 'open-meteo',
        fetchedAtMs: this.#options.now(),
        hours: parsed.forecast,
        validators: {},
      });
    }
    return delivered;
  }

  async #round(client: OpenMeteoClient, plan: RoundPlan, held: Filled, signal: AbortSignal): Promise<RoundResult> {
    const outcome = await runRound(client, plan, held.memory, this.#options.now(), signal);
    // An answer kept from a round before the pipeline ran: handed in, no request made.
    if ('fetched' in outcome && !outcome.fetched) return outcome.kind;
    this.counters.gapFillFetches++;
    if (outcome.kind === 'not_modified') return 'ok';
    if (outcome.kind === 'error') {
      this.counters.gapFillFetchErrors++;
      if (held.failures++ === 0)
        this.#log.warn(
          { station: held.station.id, reason: outcome.reason },
          `gap filling for station "${held.station.id}" got no answer from Open-Meteo (${outcome.reason}); modelled values stop being used after 45 min. Logged again when it recovers`,
        );
      held.lastError = outcome.reason;
      return 'failed';
    }
    if (held.failures > 0)
      this.#log.info({ station: held.station.id }, `gap filling for station "${held.station.id}" has Open-Meteo's answers again`);
    held.failures = 0;
    return outcome.kind;
  }

  onReading(stationId: string, reading: TimedReading): void {
    const held = this.#held.get(stationId);
    if (!held) return;
    for (const field of held.fields) if (reading.values[field] !== undefined) held.measured.add(field);
  }

  extendInput(stationId: string, input: StationInput, nowMs: number): StationInput {
    const held = this.#held.get(stationId);
    if (!held) return input;
    const current = held.current && nowMs - held.current.timeMs <= GAP_FILL_MAX_AGE_MS ? held.current.values : {};
    const filled = held.fields.filter((field) => input[field] === undefined && !held.measured.has(field) && current[field] !== undefined);
    held.lastFilled = filled;
    return filled.length === 0 ? input : { ...input, ...Object.fromEntries(filled.map((field) => [field, current[field]])) };
  }

  stateFragment(
    stationId: string,
  ): { estimated_fields: GapFillField[]; rain_source: RainSource; gap_fill: Record<string, unknown> } | undefined {
    const held = this.#held.get(stationId);
    if (!held) return undefined;
    return {
      estimated_fields: held.lastFilled,
      rain_source: held.modelRain ? 'model' : 'gauge',
      gap_fill: {
        provider: 'open-meteo',
        fields: held.fields,
        measured: held.fields.filter((field) => held.measured.has(field)),
        modelled_at: held.current ? new Date(held.current.timeMs).toISOString() : null,
        last_error: held.failures > 0 ? (held.lastError ?? null) : null,
      },
    };
  }

  stats(): Readonly<GapFillCounters> {
    return this.counters;
  }
}

/** A reading of the model with only its rain (and `values`): the station measures everything else. */
function rainOnly(reading: Reading, values: Reading['values']): Reading {
  const { rainDeltaMm, payloadTimeMs } = reading;
  return {
    values,
    rainCounters: [],
    dropped: [],
    fingerprint: `${reading.fingerprint}:rain`,
    ...(rainDeltaMm === undefined ? {} : { rainDeltaMm }),
    ...(payloadTimeMs === undefined ? {} : { payloadTimeMs }),
  };
}

/** The state keys this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The fields filled from the model, for the checks' "modelliert" lines (src/station/modelledReasons.ts). */
    estimated_fields: GapFillField[];
    /** Where the rain comes from: `model` when gap filling replaces a broken gauge. */
    rain_source: RainSource;
    gap_fill: Record<string, unknown>;
  }
}
