/**
 * Owns one StationHistory per configured station: restores them from SQLite
 * on start, feeds readings in, writes changes in batches (BatchWriter) and
 * prunes old rows. Its batches also carry what other writers on the same
 * database staged (the broker's retained messages, src/store/sharedCommit.ts),
 * so there is one commit per flush interval. The history logic itself is
 * pure (src/history).
 */
import type { Logger } from 'pino';
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { StationConfig } from '../ingest/types.js';
import {
  StationHistory,
  type Assembly,
  type BucketRow,
  type HistoryOptions,
  type HistoryRows,
  type IngestResult,
  type TimedReading,
} from '../history/stationHistory.js';
import type { HistoryStore, StationStateRow } from '../store/historyStore.js';
import { describeAnomaly } from '../history/rainPlausibility.js';
import { BatchWriter } from '../util/batchWriter.js';
import { LogThrottle } from '../util/logThrottle.js';
import { planPrune } from '../history/prunePolicy.js';
import { monotonicClock, type MonotonicClock } from '../util/clock.js';
import type { ClockSyncStatus } from '../util/clockSync.js';

const NOTHING_OBSERVED: ObservedHistory = Object.freeze({ rainSince: () => 0, minTempSince: () => Number.POSITIVE_INFINITY });

/** A station with a broken rain counter repeats its anomaly every minute: say it once an hour. */
const ANOMALY_LOG_INTERVAL_MS = 3_600_000;

interface Pending {
  buckets: Map<number, HistoryRows['buckets'][number]>;
  counters: Map<string, HistoryRows['counters'][number]>;
  latest: Map<string, HistoryRows['latest'][number]>;
  duplicates: HistoryRows['duplicates'];
}

export class HistoryService {
  readonly #store: HistoryStore;
  readonly #stations: readonly StationConfig[];
  readonly #optionsFor: (station: StationConfig) => HistoryOptions;
  readonly #log: Logger;
  readonly #histories = new Map<string, StationHistory>();
  readonly #states = new Map<string, StationStateRow>();
  readonly #pending = new Map<string, Pending>();
  readonly #pendingStates = new Map<string, StationStateRow>();
  readonly #writer: BatchWriter;
  readonly #anomalyLog: LogThrottle;
  #release: (() => void) | undefined;
  readonly #monotonic: MonotonicClock;
  readonly #clockSync: () => ClockSyncStatus;
  #startedMonotonicMs = 0;
  #restoredNewestMs: number | null = null;
  /** Commits made, for benchmarks (SD-card wear). */
  commits = 0;

  constructor(options: {
    store: HistoryStore;
    stations: readonly StationConfig[];
    optionsFor: (station: StationConfig) => HistoryOptions;
    flushIntervalMs: number;
    logger: Logger;
    now?: () => number;
    /** For the prune's uptime (src/history/prunePolicy.ts). */
    monotonic?: MonotonicClock;
    /** NTP synchronisation of the system clock (the prune waits while it is missing). */
    clockSync?: () => ClockSyncStatus;
  }) {
    this.#monotonic = options.monotonic ?? monotonicClock;
    this.#clockSync = options.clockSync ?? (() => 'unknown');
    this.#store = options.store;
    this.#stations = options.stations;
    this.#optionsFor = options.optionsFor;
    this.#log = options.logger.child({ module: 'history' });
    this.#anomalyLog = new LogThrottle(this.#log, ANOMALY_LOG_INTERVAL_MS, this.#monotonic);
    this.#writer = new BatchWriter(() => this.#persist(), options.flushIntervalMs, this.#log);
  }

  async start(): Promise<void> {
    const restored = await this.#store.loadAll(this.#stations.map((station) => station.id));
    for (const station of this.#stations) {
      const { rows, state } = restored.get(station.id)!;
      const history = new StationHistory(this.#optionsFor(station), rows);
      this.#histories.set(station.id, history);
      // The flag survives a restart; a running on-timer starts over: the index was not watched while the daemon was down.
      if (state) this.#states.set(station.id, { ...state, aboveSinceMs: null });
      this.#log.info({ station: station.id, buckets: history.bucketCount }, 'history restored');
      const newest = history.lastReadingAtMs;
      if (newest !== null && (this.#restoredNewestMs === null || newest > this.#restoredNewestMs)) this.#restoredNewestMs = newest;
    }
    this.#startedMonotonicMs = this.#monotonic.now();
    this.#release = await this.#store.drive(() => this.#writer.markDirty());
  }

  /**
   * SIGTERM: writes everything pending (history and staged retained messages). Released first, so
   * a writer staging during the final commit commits alone instead of waiting for a stopped writer.
   */
  async stop(): Promise<void> {
    this.#release?.();
    this.#release = undefined;
    await this.#writer.stop();
  }

  #history(stationId: string): StationHistory {
    const history = this.#histories.get(stationId);
    if (!history) throw new Error(`unknown station "${stationId}" (history not started?)`);
    return history;
  }

  /** `nowMs`: the wall clock at arrival (what lies beyond it was stamped before a backward clock step). */
  ingest(stationId: string, reading: TimedReading, nowMs = Number.POSITIVE_INFINITY): IngestResult {
    const history = this.#history(stationId);
    const result = history.ingest(reading, nowMs);
    if (history.dirty) this.#writer.markDirty();
    this.#logAnomalies(stationId, history);
    return result;
  }

  assemble(stationId: string, nowMs: number): Assembly {
    const history = this.#history(stationId);
    const assembly = history.assemble(nowMs);
    this.#logAnomalies(stationId, history);
    return assembly;
  }

  #logAnomalies(stationId: string, history: StationHistory): void {
    for (const anomaly of history.takeAnomalies()) {
      const { message, details } = describeAnomaly(anomaly);
      this.#anomalyLog.warn(`${stationId}:${anomaly.kind}`, { station: stationId, ...details }, message);
    }
  }

  /** A station's minute buckets in [fromMs, toMs], oldest first; empty for an unknown station. */
  buckets(stationId: string, fromMs: number, toMs: number): BucketRow[] {
    return this.#histories.get(stationId)?.buckets(fromMs, toMs) ?? [];
  }

  /** A station's rain and lowest temperature from any time on, over [fromMs, toMs) (./unit.ts); none for an unknown station. */
  observed(stationId: string, fromMs: number, toMs: number): ObservedHistory {
    return this.#histories.get(stationId)?.observed(fromMs, toMs) ?? NOTHING_OBSERVED;
  }

  /** Rain the station's last accepted reading added to its history (mm), whether its rain is unknown (TimedReading.rainUnknown), and whether the history held data stamped after the clock (TimedReading.historyAheadOfClock). */
  lastIngestRain(stationId: string): { bookedMm: number; unknown: boolean | undefined; aheadOfClock: boolean } {
    const history = this.#histories.get(stationId);
    return {
      bookedMm: history?.lastIngestRainMm ?? 0,
      unknown: history?.lastIngestRainUnknown,
      aheadOfClock: history?.lastIngestAheadOfClock ?? false,
    };
  }

  lastReadingAtMs(stationId: string): number | null {
    return this.#histories.get(stationId)?.lastReadingAtMs ?? null;
  }

  stationState(stationId: string): StationStateRow | undefined {
    return this.#states.get(stationId);
  }

  /** Persists the mowable hysteresis state when it changed. */
  setStationState(state: StationStateRow): void {
    const previous = this.#states.get(state.station);
    if (previous && previous.mowable === state.mowable && previous.aboveSinceMs === state.aboveSinceMs) return;
    this.#states.set(state.station, state);
    this.#pendingStates.set(state.station, state);
    this.#writer.markDirty();
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }

  /**
   * The wall clock stepped by `deltaMs`: each history moves its fresh rain baselines and repairs its duplicate filter,
   * and a running on-timer of the mowable hysteresis moves with the step (a step forward never shortens the on-delay).
   */
  clockStepped(nowMs: number, deltaMs: number): void {
    for (const state of this.#states.values()) {
      if (state.aboveSinceMs !== null && deltaMs !== 0) this.setStationState({ ...state, aboveSinceMs: state.aboveSinceMs + deltaMs });
    }
    for (const [station, history] of this.#histories) {
      if (!history.clockStepped(nowMs, deltaMs)) continue;
      this.#log.info({ station, deltaMs }, 'history follows the clock step (rain baselines moved, duplicate filter repaired)');
      this.#writer.markDirty();
    }
  }

  /**
   * Deletes history older than the retention, measured from the newest stored reading, and waits
   * while the clock cannot be trusted (src/history/prunePolicy.ts): a clock that jumped ahead
   * never deletes history. Returns whether it pruned.
   */
  async prune(nowMs: number): Promise<boolean> {
    await this.flush();
    const plan = planPrune({
      nowMs,
      newestMs: [...this.#histories.values()].map((history) => history.lastReadingAtMs),
      restoredNewestMs: this.#restoredNewestMs,
      uptimeMs: this.#monotonic.now() - this.#startedMonotonicMs,
      sync: this.#clockSync(),
    });
    if (!plan.prune) {
      this.#log.warn({ reason: plan.reason, now: new Date(nowMs).toISOString() }, `history prune postponed: ${plan.reason}`);
      return false;
    }
    for (const history of this.#histories.values()) history.prune(plan.referenceMs);
    const deleted = await this.#store.prune(plan.referenceMs);
    this.#log.info({ deleted, reference: new Date(plan.referenceMs).toISOString() }, 'history pruned');
    return true;
  }

  async #persist(): Promise<void> {
    for (const [station, history] of this.#histories) {
      if (!history.dirty) continue;
      const changes = history.takeChanges();
      let pending = this.#pending.get(station);
      if (!pending) {
        pending = { buckets: new Map(), counters: new Map(), latest: new Map(), duplicates: null };
        this.#pending.set(station, pending);
      }
      for (const row of changes.buckets) pending.buckets.set(row.minute, row);
      for (const row of changes.counters) pending.counters.set(row.key, row);
      for (const row of changes.latest) pending.latest.set(row.field, row);
      if (changes.duplicates !== null) pending.duplicates = changes.duplicates;
    }
    const histories = [...this.#pending].map(([station, pending]) => ({
      station,
      changes: {
        buckets: [...pending.buckets.values()],
        counters: [...pending.counters.values()],
        latest: [...pending.latest.values()],
        duplicates: pending.duplicates,
      },
    }));
    const states = [...this.#pendingStates.values()];
    if (await this.#store.save({ histories, states })) this.commits++;
    // Only now are the changes safe; rows changed again meanwhile are newer copies in the histories.
    this.#pending.clear();
    for (const state of states) if (this.#pendingStates.get(state.station) === state) this.#pendingStates.delete(state.station);
  }
}
