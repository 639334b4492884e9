/**
 * Modelled stations (`format: "open-meteo"`) as a station unit (src/station/unit.ts): per station,
 * a loop (./modelledLoop.ts) runs rounds (./modelledRound.ts) that backfill the history on the
 * first start and then feed the current conditions every interval through the pipeline's
 * `acceptReading`, like any station's readings; the same answer carries the station's forecast.
 * The unit's hooks answer from memory: the state's `origin` and `modelled` object (what was
 * fetched, or why nothing was), and counters. A provider outage is logged once when it begins and
 * once when it ends.
 */
import type { Logger } from 'pino';
import type { CachedForecast } from '../store/forecastStore.js';
import { connectOpenMeteo } from '../openmeteo/openMeteoClient.js';
import { OPEN_METEO_ATTRIBUTION } from '../openmeteo/openMeteoResponse.js';
import { MODELLED_FORMAT, type StationConfig, type StationLocation } from '../ingest/types.js';
import { MINUTE_MS } from '../history/windows.js';
import type { MowableHold, StationHistoryView, StationUnit, UnitContext } from '../station/unit.js';
import { ModelledLoop, type RoundResult } from './modelledLoop.js';
import type { AcceptReading } from '../station/facade.js';
import { modelledRoundPlan, runRound, type ModelledRoundDeps, type RoundOutcome } from './modelledRound.js';
import { modelledPlan, modelledView, outageSentence, type ModelledProgress, type ModelledView } from './modelledStatus.js';

export interface ModelledSettings {
  openMeteoUrl: string;
  /** How often the current conditions are fetched. */
  intervalMinutes: number;
  timeoutSeconds: number;
  retries: number;
}

export interface ModelledUnitOptions {
  stations: readonly ModelledStationConfig[];
  settings: ModelledSettings;
  accept: AcceptReading;
  supplyForecast?: (stationId: string, forecast: CachedForecast) => Promise<void>;
  logger: Logger;
  now: () => number;
  userAgent: string;
  /** The configured time zone: the outage's clock time in the reasons (default UTC). */
  timeZone?: string;
  /** Tests: a fake fetch, quicker back-offs, a fixed jitter. */
  fetch?: typeof fetch;
  retryBackoffMs?: number;
  roundBackoffMs?: number;
  random?: () => number;
}

export type ModelledCounters = {
  modelledFetches: number;
  modelledFetchErrors: number;
  modelledAnswersRefused: number;
  modelledReadings: number;
};

/** What the modelled units read of a station's configuration. */
export type ModelledStationConfig = Pick<StationConfig, 'id' | 'location' | 'gapFill'> & { format?: StationConfig['format'] };

type ModelledStation = ModelledStationConfig & { location: StationLocation };

const RETRY_BACKOFF_MS = 5000;
const ROUND_BACKOFF_MS = 30_000;

export function isModelled(station: ModelledStationConfig): station is ModelledStation {
  return station.format === MODELLED_FORMAT && station.location !== undefined;
}

export class ModelledStationUnit implements StationUnit {
  readonly name = 'modelled';
  readonly counters: ModelledCounters = { modelledFetches: 0, modelledFetchErrors: 0, modelledAnswersRefused: 0, modelledReadings: 0 };
  readonly #options: ModelledUnitOptions;
  readonly #stations: ModelledStation[];
  readonly #progress = new Map<string, ModelledProgress>();
  readonly #loops: ModelledLoop[] = [];
  readonly #log: Logger;
  #history: StationHistoryView | undefined;

  constructor(options: ModelledUnitOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'modelled' });
    this.#stations = options.stations.filter(isModelled);
    for (const station of this.#stations) this.#progress.set(station.id, { failures: 0, memory: { validators: {} } });
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
    if (this.#stations.length === 0) return;
    const { settings } = this.#options;
    const client = connectOpenMeteo(settings, this.#options, this.#options.retryBackoffMs ?? RETRY_BACKOFF_MS);
    const { accept, now, supplyForecast } = this.#options;
    const deps: ModelledRoundDeps = {
      baseUrl: client.baseUrl,
      history: context.history,
      accept,
      now,
      ...(supplyForecast ? { supplyForecast } : {}),
    };
    const intervalMs = settings.intervalMinutes * MINUTE_MS;
    for (const station of this.#stations) {
      const progress = this.#progress.get(station.id)!;
      const plan = modelledRoundPlan(deps, station);
      this.#log.info(
        { station: station.id, location: station.location },
        modelledPlan(station, settings.intervalMinutes, settings.openMeteoUrl),
      );
      const loop = new ModelledLoop({
        intervalMs,
        backoffMs: Math.min(intervalMs, this.#options.roundBackoffMs ?? ROUND_BACKOFF_MS),
        random: this.#options.random ?? Math.random,
        round: async (signal) => this.#settle(station, progress, await runRound(client, plan, progress.memory, now(), signal)),
      });
      loop.start();
      this.#loops.push(loop);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    this.#loops.length = 0;
  }

  #settle(station: ModelledStation, progress: ModelledProgress, outcome: RoundOutcome): RoundResult {
    const nowMs = this.#options.now();
    if (!('fetched' in outcome) || outcome.fetched) {
      this.counters.modelledFetches++;
      progress.lastFetchAtMs = nowMs;
    }
    if (outcome.kind === 'not_running') return 'not_running';
    if (outcome.kind === 'error') {
      this.counters.modelledFetchErrors++;
      if (outcome.refused) this.counters.modelledAnswersRefused++;
      progress.failures++;
      progress.lastError = outcome.reason;
      progress.lastErrorRedirectRefused = outcome.problem === 'redirectRefused';
      progress.failingSinceMs ??= nowMs;
      if (progress.failures === 1) {
        this.#log.warn(
          { station: station.id, reason: outcome.reason },
          `Open-Meteo did not deliver station "${station.id}"'s data (${outcome.reason}); retrying with back-off, the gap is filled from past hours once it answers. Logged again when it recovers`,
        );
      }
      return 'failed';
    }
    if (progress.failures > 0)
      this.#log.info(
        { station: station.id, failures: progress.failures },
        `Open-Meteo answers again for station "${station.id}" after ${progress.failures} failed round(s)`,
      );
    progress.failures = 0;
    progress.failingSinceMs = undefined;
    progress.lastOkAtMs = nowMs;
    if (outcome.kind === 'ok') this.counters.modelledReadings += outcome.accepted;
    return 'ok';
  }

  stateFragment(stationId: string, nowMs: number): { origin: 'modelled'; modelled: ModelledView } | undefined {
    const progress = this.#progress.get(stationId);
    if (!progress) return undefined;
    return {
      origin: 'modelled',
      modelled: modelledView(
        progress,
        this.#history?.lastReadingAtMs(stationId) ?? null,
        OPEN_METEO_ATTRIBUTION,
        nowMs,
        this.#options.timeZone,
      ),
    };
  }

  /**
   * While Open-Meteo does not answer, the station's data does not arrive: `mowable` stays off (a
   * model that is not fetched cannot see rain begin), and that is the reason, before any other
   * (MowableHold.sourceOutage: a night ban is not why nothing arrives).
   */
  mowableHold(stationId: string, nowMs: number): MowableHold | undefined {
    const progress = this.#progress.get(stationId);
    if (!progress || progress.failures === 0) return undefined;
    const sinceMs = progress.failingSinceMs ?? nowMs;
    const timeZone = this.#options.timeZone ?? 'UTC';
    return {
      code: 'provider_unreachable',
      reason: { en: outageSentence(sinceMs, nowMs, timeZone, 'en'), de: outageSentence(sinceMs, nowMs, timeZone, 'de') },
      sourceOutage: true,
    };
  }

  stats(): Readonly<ModelledCounters> {
    return this.counters;
  }
}

/** The state keys this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** `modelled`: readings from a weather model, not sensors (format "open-meteo"). */
    origin: 'modelled';
    /** The provider's status (src/modelled/modelledStatus.ts). */
    modelled: ModelledView;
  }
}
