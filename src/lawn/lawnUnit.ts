/**
 * Lawn memory as a station unit: keeps a LawnStation per station from every accepted reading, adds
 * the derived inputs (blade_drying_minutes, mow_need, wet_spell_hours) to the calculation, publishes
 * the state's `lawn`, holds `mowable` in quiet hours, and takes cuts from `<base>/<station>/mowed`
 * and from `mowability mowed` (polled from the database). Balances are written every
 * saveIntervalMinutes and on stop; a cut at once.
 */
import type { Logger } from 'pino';
import { quietCauseText, type QuietHoursSettings } from '../core/lawn/quietHours.js';
import { soilProfile } from '../core/lawn/soilBucket.js';
import { localDateTime } from '../core/season.js';
import type { LawnProfile } from '../core/types.js';
import type { StationLocation } from '../ingest/types.js';
import type { TimedReading } from '../history/stationHistory.js';
import type { EntitySpec } from '../homeassistant/stationEntities.js';
import type { MowableHold, StationHistoryView, StationInput, StationUnit, UnitContext, UnitSubscriber } from '../station/unit.js';
import type { ClockStep } from '../util/clockWatch.js';
import { lawnEntities, MOWED_NOW_SOURCE, mowedNowButton } from './lawnEntities.js';
import { QuietHolds, type NightSun } from './quietHold.js';
import { restoreMemory } from './restore.js';
import { LawnStation, type GrowthSettings, type LawnStatus } from './lawnStation.js';
import type { LawnMemoryStore } from '../store/lawnMemoryStore.js';
import { SoilMoistureFeed, seedSensor, withSoilSource, type SoilMoistureSource } from './soilFeed.js';
import { MOWED_COMMAND, MOWED_NOW_COMMAND } from '../config/mqttValues.js';
import { MAX_MOWED_PAYLOAD_BYTES, cutTimeProblem, parseMowedPayload } from './mowedPayload.js';
import { LawnCutBook } from './lawnCutBook.js';
import { gddSince, type LawnMemoryState } from '../core/lawn/memory.js';
import { mergedCopy } from '../util/mergedCopy.js';

/** What the lawn memory needs of a station: its lawn profile (over the service-level one), where it stands, its lawns. */
export interface LawnStationConfig {
  id: string;
  lawn?: Partial<LawnProfile> | undefined;
  location?: StationLocation | undefined;
  /** Its lawns (./lawnsConfig.ts); absent: the one lawn named after the station. The first one's cuts are the station's. */
  lawns?: ReadonlyArray<{ readonly id: string; readonly primary: boolean }> | undefined;
}

/** One lawn's cut and growth as the planner reads them (the station's weather, the lawn's own last cut). */
export interface LawnGrowth {
  readonly lastCutMs: number | null;
  /** Degree-days since the lawn's last cut; null before one is known. */
  readonly gddSinceCut: number | null;
  /** The station's memory (its degree-day checkpoints give the growth rate now); read, never change it. */
  readonly memory: Readonly<LawnMemoryState>;
}

export interface LawnUnitOptions {
  stations: readonly LawnStationConfig[];
  /** Its balances and cuts in the database (src/store/lawnMemoryStore.ts). */
  store: LawnMemoryStore;
  logger: Logger;
  now: () => number;
  baseTopic: string;
  /** The service-level lawn profile; a station's `lawn` overrides it key by key. */
  lawn: LawnProfile;
  quiet: QuietHoursSettings;
  growth: GrowthSettings;
  saveIntervalMs: number;
  pollIntervalMs: number;
}

export type LawnCounters = { lawnCutsReceived: number; lawnCutsRejected: number; lawnSaves: number };

export class LawnMemoryUnit implements StationUnit {
  readonly name = 'lawn';
  readonly counters: LawnCounters = { lawnCutsReceived: 0, lawnCutsRejected: 0, lawnSaves: 0 };
  readonly #options: LawnUnitOptions;
  readonly #store: LawnMemoryStore;
  readonly #log: Logger;
  readonly #stations = new Map<string, LawnStation>();
  readonly #soil = new SoilMoistureFeed();
  readonly #quietHolds: QuietHolds;
  /** The further lawns' cuts; and the first lawn's id where it is not the station's (its mowed topic records the station's cut). */
  readonly #lawnCuts: LawnCutBook;
  readonly #primaryAlias = new Map<string, string>();
  #history: StationHistoryView | undefined;
  #recompute: ((stationId: string) => void) | undefined;
  #saveTimer: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #dataVersion = -1;
  #polling = false;
  readonly #cutWrites = new Set<Promise<void>>();

  constructor(options: LawnUnitOptions) {
    this.#options = options;
    this.#store = options.store;
    this.#quietHolds = new QuietHolds(options.quiet, options.stations);
    const further = options.stations.flatMap((station) =>
      (station.lawns ?? []).filter((lawn) => !lawn.primary).map((lawn) => ({ stationId: station.id, lawnId: lawn.id })),
    );
    this.#lawnCuts = new LawnCutBook(further);
    for (const station of options.stations) {
      const first = station.lawns?.find((lawn) => lawn.primary);
      if (first && first.id !== station.id) this.#primaryAlias.set(first.id, station.id);
    }
    this.#log = options.logger.child({ module: 'lawn' });
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
    const balances = await this.#store.loadBalances();
    for (const station of this.#options.stations) {
      const lawn = { ...this.#options.lawn, ...station.lawn };
      const profile = soilProfile(lawn.soilType, lawn.turfType, lawn.fieldCapacityPercent);
      const lawnStation = new LawnStation(profile, station.location?.elevation, restoreMemory(balances.get(station.id)));
      const savedAtMs = lawnStation.memory.atMs;
      if (savedAtMs !== null) lawnStation.catchUp(context.history.buckets(station.id, savedAtMs, this.#options.now()));
      const atMs = lawnStation.memory.atMs;
      if (atMs !== null) lawnStation.resumeRain(context.history.buckets(station.id, atMs, atMs));
      this.#stations.set(station.id, lawnStation);
      this.#soil.register(station.id, lawn, profile);
      seedSensor(this.#soil, context.history, station.id, this.#options.now());
    }
    // No station keeps a lawn memory: nothing to save or pick up, and an idle daemon does not wake for it.
    if (this.#stations.size === 0) return;
    await this.#pollCuts();
    this.#saveTimer = setInterval(() => void this.#save(), this.#options.saveIntervalMs);
    this.#saveTimer.unref();
    this.#pollTimer = setInterval(() => void this.#pollCuts(), this.#options.pollIntervalMs);
    this.#pollTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#saveTimer);
    clearInterval(this.#pollTimer);
    await Promise.all(this.#cutWrites);
    await this.#save();
  }

  onReading(stationId: string, reading: TimedReading): void {
    const lawn = this.#stations.get(stationId);
    if (!lawn || !this.#history) return;
    const buckets = this.#history.buckets(stationId, lawn.rainFromMs(reading.timeMs), reading.timeMs);
    lawn.onReading(reading, buckets);
    this.#soil.onReading(stationId, reading);
  }

  /** The wall clock stepped: each memory moves with it and reads rain on from its moved balance. */
  clockStepped(step: ClockStep): void {
    for (const [stationId, lawn] of this.#stations) {
      lawn.clockStepped(step.deltaMs);
      const atMs = lawn.memory.atMs;
      if (atMs !== null && this.#history) lawn.resumeRain(this.#history.buckets(stationId, atMs, atMs));
    }
  }

  subscribe(connection: UnitSubscriber, recompute: (stationId: string) => void): void {
    this.#recompute = recompute;
    const topic = (id: string) => `${this.#options.baseTopic}/${id}/${MOWED_COMMAND}`;
    for (const station of this.#options.stations) {
      connection.subscribe(topic(station.id), (_topic, payload, retained) => {
        if (this.handleMowed(station.id, payload, retained)) recompute(station.id);
      });
      connection.subscribe(`${this.#options.baseTopic}/${station.id}/${MOWED_NOW_COMMAND}`, (_topic, _payload, retained) => {
        if (this.handleMowedNow(station.id, retained)) recompute(station.id);
      });
    }
    // The first lawn under an id of its own records the station's cut; a further lawn its own.
    for (const [lawnId, stationId] of this.#primaryAlias) {
      connection.subscribe(topic(lawnId), (_topic, payload, retained) => {
        if (this.handleMowed(stationId, payload, retained)) recompute(stationId);
      });
    }
    for (const [lawnId, stationId] of this.#lawnCuts.lawns()) {
      connection.subscribe(topic(lawnId), (_topic, payload, retained) => {
        if (this.handleMowed(stationId, payload, retained, lawnId)) recompute(stationId);
      });
    }
  }

  /** A press of Home Assistant's "Mowed now": a cut now. A retained press (left on a broker by anyone) is no press. */
  handleMowedNow(stationId: string, retained: boolean): boolean {
    if (!this.#stations.has(stationId) || retained) return false;
    this.counters.lawnCutsReceived++;
    return this.recordCut(stationId, this.#options.now(), MOWED_NOW_SOURCE);
  }

  /** One message on a station's (or, with `lawnId`, a further lawn's) mowed topic; true when the last cut changed. */
  handleMowed(stationId: string, payload: Buffer, retained: boolean, lawnId?: string): boolean {
    const lawn = this.#stations.get(stationId);
    if (!lawn) return false;
    this.counters.lawnCutsReceived++;
    const nowMs = this.#options.now();
    const report =
      payload.length <= MAX_MOWED_PAYLOAD_BYTES
        ? parseMowedPayload(payload.toString('utf8'))
        : { ok: false as const, reason: 'payload too long' };
    // A retained "now" is as old as the broker's copy: it says nothing about when the lawn was cut.
    const problem = !report.ok
      ? report.reason
      : report.atMs === null && retained
        ? 'retained message without a time'
        : cutTimeProblem(report.atMs ?? nowMs, nowMs);
    if (!report.ok || problem !== null) {
      this.counters.lawnCutsRejected++;
      this.#log.warn({ station: stationId, ...(lawnId && { lawn: lawnId }), bytes: payload.length }, `mowed message ignored: ${problem}`);
      return false;
    }
    return this.recordCut(stationId, report.atMs ?? nowMs, report.source ?? 'mqtt', lawnId);
  }

  /**
   * The one place a cut reported to the running daemon is recorded (the mowed topic, the mower state
   * topic): in memory at once, in the database in the background. True when the last cut moved later.
   */
  recordCut(stationId: string, atMs: number, source: string, lawnId?: string): boolean {
    const lawn = this.#stations.get(stationId);
    // A further lawn keeps its own cut (under its id); the first lawn's is the station's.
    const further = lawnId !== undefined && this.#lawnCuts.stationOf(lawnId) === stationId;
    if (further) {
      if (!lawn || !this.#lawnCuts.take(lawnId, atMs, source)) return false;
    } else {
      if (!lawn || (lawn.lastCutMs !== null && atMs <= lawn.lastCutMs)) return false;
      lawn.setCut(atMs, source);
    }
    const key = further ? lawnId : stationId;
    const write = this.#store
      .saveCut({ station: key, atMs, source }, this.#options.now())
      .catch((err: unknown) => this.#log.error({ err, station: stationId, lawn: key }, 'saving the cut failed'))
      .finally(() => this.#cutWrites.delete(write));
    this.#cutWrites.add(write);
    return true;
  }

  extendInput(stationId: string, input: StationInput, nowMs: number): StationInput {
    const lawn = this.#stations.get(stationId);
    if (!lawn) return input;
    if (input.minutes_since_irrigation === 0) lawn.markIrrigated();
    const derived = lawn.derived(nowMs, this.#options.growth);
    const extended = this.#soil.extend(stationId, input, lawn.memory, nowMs);
    return Object.keys(derived).length === 0 ? extended : mergedCopy<StationInput>(extended, derived);
  }

  status(stationId: string, nowMs: number): (LawnStatus & { soil_moisture_source: SoilMoistureSource }) | undefined {
    const timeLabel = (ms: number) => {
      const local = localDateTime(ms, this.#options.quiet.timeZone);
      return `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`;
    };
    const lawn = this.#stations.get(stationId);
    return lawn && withSoilSource(lawn.status(nowMs, this.#options.growth, timeLabel), this.#soil.source(stationId, lawn.memory, nowMs));
  }

  stateFragment(
    stationId: string,
    nowMs: number,
  ): { lawn: LawnStatus & { soil_moisture_source: SoilMoistureSource }; night_ban_sun?: NightSun } | undefined {
    const status = this.status(stationId, nowMs);
    if (!status) return undefined;
    const sun = this.#quietHolds.nightSun(stationId);
    return sun ? { lawn: status, night_ban_sun: sun } : { lawn: status };
  }

  mowableHold(stationId: string, nowMs: number): MowableHold | undefined {
    return this.#quietHolds.holdAt(stationId, nowMs);
  }

  entities(station: { id: string }): EntitySpec[] {
    return [...lawnEntities(), mowedNowButton(this.#options.baseTopic, station.id)];
  }

  /** A lawn's last cut and its growth since (`lawnId` the station's own or its first lawn: the station's). Undefined for an unknown station. */
  lawnGrowth(stationId: string, lawnId: string): LawnGrowth | undefined {
    const station = this.#stations.get(stationId);
    if (!station) return undefined;
    const memory = station.memory;
    if (this.#lawnCuts.stationOf(lawnId) !== stationId) return { lastCutMs: station.lastCutMs, gddSinceCut: station.gddSinceCut(), memory };
    const cut = this.#lawnCuts.lastCut(lawnId);
    return { lastCutMs: cut?.atMs ?? null, gddSinceCut: cut ? gddSince(memory, cut.atMs) : null, memory };
  }

  stats(): Readonly<LawnCounters> {
    return this.counters;
  }

  /** Writes the balances of stations that changed, in one transaction. */
  async #save(): Promise<void> {
    const rows = [...this.#stations].filter(([, lawn]) => lawn.dirty).map(([station, lawn]) => ({ station, state: lawn.memory }));
    if (rows.length === 0) return;
    for (const [, lawn] of this.#stations) lawn.dirty = false;
    try {
      await this.#store.saveBalances(rows, this.#options.now());
      this.counters.lawnSaves++;
    } catch (err) {
      for (const row of rows) this.#stations.get(row.station)!.dirty = true;
      this.#log.error({ err }, 'saving the lawn memory failed; retrying at the next interval');
    }
  }

  /** Picks up cuts another process (the CLI) wrote: only when the database's change counter moved. */
  async #pollCuts(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const version = await this.#store.changeCounter();
      if (version === this.#dataVersion) return;
      this.#dataVersion = version;
      for (const [key, cut] of await this.#store.loadCuts()) {
        const furtherStation = this.#lawnCuts.stationOf(key);
        if (furtherStation !== undefined) {
          if (this.#lawnCuts.take(key, cut.atMs, cut.source)) this.#recompute?.(furtherStation);
          continue;
        }
        const stationId = key;
        const lawn = this.#stations.get(stationId);
        if (!lawn) continue;
        const changed = lawn.lastCutMs !== cut.atMs;
        lawn.setCut(cut.atMs, cut.source);
        if (changed) this.#recompute?.(stationId);
      }
    } catch (err) {
      this.#log.warn({ err }, 'reading recorded cuts failed');
    } finally {
      this.#polling = false;
    }
  }
}

/** The night ban without its times (they are the station's sunset and sunrise). */
export function nightBanPublicReason(marginMinutes: number): string {
  return quietCauseText({ kind: 'night', fromMs: 0, toMs: 0, marginMinutes }, 'en', 'UTC', true);
}

/** The state key this unit owns (src/station/statePayload.ts). */
declare module '../station/statePayload.js' {
  interface StationStateFields {
    /** The lawn memory: blade and soil water, growth since the last cut. */
    lawn: LawnStatus & { soil_moisture_source: SoilMoistureSource };
  }
}
