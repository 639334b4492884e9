/**
 * The station pipeline: readings (MQTT messages or uploads) → history →
 * station units → debounced recompute → the station's state. It runs whenever
 * stations are configured, with or without MQTT; the MQTT side only publishes
 * what it produces (`onState`) and feeds it messages (`handleSharedMessage`, src/mqtt/bridge.ts).
 */
import type { Logger } from 'pino';
import { calculationContext, type CalculationSettings } from '../config/calculationContext.js';
import type { Reading, StationConfig } from '../ingest/types.js';
import { HistoryService } from './historyService.js';
import { historyOptionsFor } from '../config/historyOptions.js';
import type { StationSideConfig } from '../config/schema.js';
import type { StationStatePayload } from './statePayload.js';
import { StationEventLog } from './stationEvents.js';
import { StationIngest, type AcceptOutcome, type IngestCounters } from './stationIngest.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { Database } from '../store/database.js';
import { HistoryStore } from '../store/historyStore.js';
import type { Clock, MonotonicClock } from '../util/clock.js';
import { RecentRain } from './recentRain.js';
import type { ClockSteps } from '../util/clockWatch.js';
import { logFailure } from '../util/guarded.js';
import type { LifecycleComponent } from '../util/lifecycle.js';
import type { LogThrottle } from '../util/logThrottle.js';
import { KeyedDebounce } from './debounce.js';
import { isolateUnit, UnitFailures } from './isolatedUnit.js';
import { StationRecompute, type StationOverrides } from './recompute.js';
import type { StationHistoryView, StationUnit } from './unit.js';
import { unitContext } from './unitBuilder.js';

export interface PipelineStats extends IngestCounters {
  /** Each unit's own counters (its `stats()`), by unit name. */
  units: Readonly<Record<string, Readonly<Record<string, number>>>>;
  statesPublished: number;
  historyCommits: number;
  /** Station unit hooks that threw (caught: ./isolatedUnit.ts). */
  unitFailures: number;
}

export interface PipelineOptions {
  config: StationSideConfig & CalculationSettings;
  database: Database;
  logger: Logger;
  /** The station side's child logger (`module: "station"`) and its throttle. */
  log: Logger;
  throttle: LogThrottle;
  clock: Clock;
  /** Units built by the composition root (stationUnits() in src/daemon.ts), after the built-in recent rain. */
  units: readonly StationUnit[];
  /** Measures "rain in the last hour" for the recent-rain unit (src/station/recentRain.ts); default: `clock`. */
  monotonic?: MonotonicClock;
  /** Clock steps and synchronisation (src/util/clockWatch.ts): the history repairs itself, states are recomputed at once. */
  clockSteps?: ClockSteps;
  /** Per-station values set at run time over the configuration's (Home Assistant's controls). */
  overrides?: StationOverrides | undefined;
}

export type StateListener = (station: StationConfig, state: StationStatePayload, nowMs: number) => void;

export class StationPipeline implements LifecycleComponent {
  readonly name = 'station-pipeline';
  readonly stations: readonly StationConfig[];
  readonly units: readonly StationUnit[];
  readonly #options: PipelineOptions;
  readonly #byId: ReadonlyMap<string, StationConfig>;
  readonly #history: HistoryService;
  readonly #ingest: StationIngest;
  readonly #events: StationEventLog;
  readonly #recompute: StationRecompute;
  readonly #debounce: KeyedDebounce;
  readonly #unitFailures = new UnitFailures();
  readonly #lastStates = new Map<string, StationStatePayload>();
  readonly #listeners: StateListener[] = [];
  #statesPublished = 0;
  #running = false;

  constructor(options: PipelineOptions) {
    const { config, clock } = options;
    this.#options = options;
    this.stations = config.stations;
    this.#byId = new Map(this.stations.map((station) => [station.id, station]));
    this.#history = new HistoryService({
      store: new HistoryStore(options.database),
      stations: this.stations,
      optionsFor: (station) => historyOptionsFor(config, station),
      flushIntervalMs: config.history.flushIntervalSeconds * 1000,
      logger: options.logger,
      now: () => clock.now(),
      clockSync: () => options.clockSteps?.sync ?? 'unknown',
    });
    // Every unit behind the one isolation wrapper: a unit that throws costs its own part, never a station.
    const isolation = { failures: this.#unitFailures, throttle: options.throttle, log: options.log };
    this.units = [new RecentRain(options.monotonic ?? clock, () => options.clockSteps?.sync ?? 'unknown'), ...options.units].map((unit) =>
      isolateUnit(unit, isolation),
    );
    this.#events = new StationEventLog(options.logger);
    this.#ingest = new StationIngest({
      history: this.#history,
      clock,
      throttle: options.throttle,
      timeZone: calculationContext(config, 0).timeZone,
      maxPayloadBytes: config.station.maxPayloadBytes,
      clockSync: () => options.clockSteps?.sync ?? 'unknown',
      onAccepted: (stationId, reading) => this.#tellUnits(stationId, reading),
    });
    this.#recompute = new StationRecompute({
      config,
      history: this.#history,
      units: this.units,
      events: this.#events,
      throttle: options.throttle,
      unitFailures: this.#unitFailures,
      ...(options.overrides && { overrides: options.overrides }),
    });
    this.#debounce = new KeyedDebounce(config.station.recomputeDebounceMs, (stationId) =>
      logFailure(options.log, 'recompute', { station: stationId }),
    );
    options.clockSteps?.onStep((step) => {
      if (!this.#running) return;
      this.#history.clockStepped(clock.now(), step.deltaMs);
      for (const unit of this.units) unit.clockStepped?.(step);
      this.recomputeAll();
    });
  }

  /** Restores the histories, then starts the units (they read the restored history). */
  async start(): Promise<void> {
    await this.#history.start();
    // A frozen view of the history, nothing else of the pipeline (src/station/unit.ts).
    const context = unitContext(this.#history);
    for (const unit of this.units) await unit.start?.(context);
    this.#running = true;
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#debounce.cancelAll();
    // The isolated units catch and log their own failures to stop.
    for (const unit of [...this.units].reverse()) await unit.stop?.();
    await this.#history.stop();
  }

  get running(): boolean {
    return this.#running;
  }

  /** Read-only history for the units and the scheduled prune. */
  get history(): StationHistoryView & Pick<HistoryService, 'prune' | 'flush'> {
    return this.#history;
  }

  /** Called with every state computed, once and in order, after the units' onState (one way: readings in, state out, listeners fed). */
  onState(listener: StateListener): void {
    this.#listeners.push(listener);
  }

  /** One MQTT message on a station's topic. */
  handleMessage(station: StationConfig, topic: string, payload: Buffer, retained: boolean): void {
    this.handleSharedMessage([station], topic, payload, retained);
  }

  /** One MQTT message on a topic several stations read (rtl_433's events topic): decoded once, offered to each in order. */
  handleSharedMessage(stations: readonly StationConfig[], topic: string, payload: Buffer, retained: boolean): void {
    const decoded: { text?: string } = {};
    for (const station of stations) {
      if (!this.#ingest.handle(station, topic, payload, retained, decoded)) continue;
      this.#events.reading(station.id, topic);
      this.scheduleRecompute(station.id);
    }
  }

  /** A reading parsed outside MQTT (uploads): the same history, units and recompute. */
  acceptReading(stationId: string, reading: Reading, origin: string): AcceptOutcome | 'unknown_station' | 'not_running' {
    const station = this.#byId.get(stationId);
    if (!station) return 'unknown_station';
    if (!this.#running) return 'not_running';
    const outcome = this.#ingest.accept(station, reading, origin);
    if (outcome === 'accepted') {
      this.#events.reading(station.id, origin);
      this.scheduleRecompute(station.id);
    }
    return outcome;
  }

  /** A (debounced) recompute of one station; ignored for unknown ids and when stopped. */
  scheduleRecompute(stationId: string): void {
    const station = this.#byId.get(stationId);
    if (!station || !this.#running) return;
    this.#debounce.schedule(station.id, () => {
      if (this.#running) this.#recomputeNow(station);
    });
  }

  recomputeAll(): void {
    for (const station of this.stations) this.#recomputeNow(station);
  }

  stationState(stationId: string): StationStatePayload | undefined {
    return this.#lastStates.get(stationId);
  }

  /** More Home Assistant entities the units add for a station. */
  entities(stationId: string): EntitySpec[] {
    const station = this.#byId.get(stationId);
    return station ? this.units.flatMap((unit) => unit.entities?.(station) ?? []) : [];
  }

  /** What became of each station's messages and readings (received, accepted, rejected, ...). */
  stationCounts(): ReadonlyMap<string, Readonly<IngestCounters>> {
    return this.#ingest.perStation;
  }

  stats(): PipelineStats {
    const units: Record<string, Readonly<Record<string, number>>> = {};
    for (const unit of this.units) {
      const counters = unit.stats?.();
      if (counters) units[unit.name] = { ...counters };
    }
    return {
      ...this.#ingest.counters,
      units,
      statesPublished: this.#statesPublished,
      historyCommits: this.#history.commits,
      unitFailures: this.#unitFailures.count,
    };
  }

  /** One station's recompute; whatever fails here is logged for that station and the others go on. */
  #recomputeNow(station: StationConfig): void {
    try {
      const nowMs = this.#options.clock.now();
      const state = this.#recompute.run(station, nowMs);
      if (!state) return;
      this.#lastStates.set(station.id, state);
      this.#statesPublished++;
      // Isolated units: a throwing onState is caught per unit and station; the listeners still get the state.
      for (const unit of this.units) unit.onState?.(station.id, state, nowMs);
      for (const listener of this.#listeners) listener(station, state, nowMs);
    } catch (err) {
      this.#options.throttle.warn(
        `recompute:${station.id}`,
        { err, station: station.id },
        `recompute of station ${station.id} failed; the other stations go on`,
      );
    }
  }

  #tellUnits(stationId: string, reading: Parameters<NonNullable<StationUnit['onReading']>>[1]): void {
    // Isolated units: a throwing onReading is caught and logged per unit and station.
    for (const unit of this.units) unit.onReading?.(stationId, reading);
  }
}
