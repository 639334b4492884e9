/**
 * The status page's chart series the minute buckets do not keep: per station
 * a ring of one slot per minute for the last 14 days holding temperature,
 * humidity, dew point and the index. With a database, each completed
 * 10-minute slot's means (the index: its last value) are staged for the
 * history's next commit (src/store/chartSeriesStore.ts) and read back at
 * start, so the charts survive a restart at 10-minute resolution; the slot in
 * progress is staged on stop.
 *
 * It is a StationUnit fed one way: every accepted reading (onReading) and
 * every new state (onState, the index at the minute of the reading it was
 * computed from). The page's routes only read it (src/http/stationsView.ts),
 * with the history view it keeps from start. No timer of its own: work
 * happens only on a reading, a state, start and stop. Memory: 20 bytes per
 * slot, about 400 KB per station, allocated on the station's first reading.
 */
import { dewPointMagnusC } from '../core/physics.js';
import type { TimedReading } from '../history/stationHistory.js';
import { RETENTION_MINUTES, minuteOf } from '../history/windows.js';
import type { StationHistoryView, StationUnit, UnitContext } from './unit.js';
import { CHART_RETENTION_SLOTS, CHART_SLOT_MINUTES, ChartSeriesStore, type ChartSlotRow } from '../store/chartSeriesStore.js';
import type { Database } from '../store/database.js';

/** The series the ring holds, in slot order. */
export const RECORDED_SERIES = ['temperature', 'humidity', 'dew_point', 'index'] as const;
export type RecordedSeries = (typeof RECORDED_SERIES)[number];

/** What the recorder reads from a new state. */
export interface RecordableState {
  index_score?: number | null;
  last_reading_at: string | null;
}

class MinuteRing {
  readonly #minutes = new Int32Array(RETENTION_MINUTES).fill(-1);
  readonly #values = RECORDED_SERIES.map(() => new Float32Array(RETENTION_MINUTES).fill(Number.NaN));

  #slot(minute: number): number {
    const slot = minute % RETENTION_MINUTES;
    if (this.#minutes[slot] !== minute) {
      this.#minutes[slot] = minute;
      for (const values of this.#values) values[slot] = Number.NaN;
    }
    return slot;
  }

  set(minute: number, series: RecordedSeries, value: number): void {
    // A late reading older than the ring's span would overwrite a newer minute.
    const newest = this.newestMinute;
    if (newest !== -1 && minute <= newest - RETENTION_MINUTES) return;
    const slot = this.#slot(minute);
    this.#values[RECORDED_SERIES.indexOf(series)]![slot] = value;
    if (minute > newest) this.newestMinute = minute;
  }

  newestMinute = -1;

  /** Calls `visit` for every recorded minute in [fromMinute, toMinute), oldest first. */
  forEach(fromMinute: number, toMinute: number, visit: (minute: number, value: (series: RecordedSeries) => number) => void): void {
    const start = Math.max(fromMinute, toMinute - RETENTION_MINUTES);
    for (let minute = start; minute < toMinute; minute++) {
      const slot = minute % RETENTION_MINUTES;
      if (this.#minutes[slot] !== minute) continue;
      visit(minute, (series) => this.#values[RECORDED_SERIES.indexOf(series)]![slot]!);
    }
  }
}

/** One recorded minute: NaN where nothing was recorded. */
export type RecordedMinute = (minute: number, value: (series: RecordedSeries) => number) => void;

/** Where the series are kept across restarts: the daemon's database (open once the unit starts) and the configured stations. */
export interface RecorderPersistence {
  database: () => Database;
  stations: readonly string[];
}

const slotOf = (minute: number): number => Math.floor(minute / CHART_SLOT_MINUTES);

/** A slot's row from the ring: the mean of each series' minutes, the index's last value. */
function slotRow(ring: MinuteRing, station: string, slot: number): ChartSlotRow {
  const sums = { temperature: 0, humidity: 0, dew_point: 0 };
  const counts = { temperature: 0, humidity: 0, dew_point: 0 };
  const last = { index: null as number | null };
  ring.forEach(slot * CHART_SLOT_MINUTES, (slot + 1) * CHART_SLOT_MINUTES, (_minute, value) => {
    for (const series of ['temperature', 'humidity', 'dew_point'] as const) {
      const v = value(series);
      if (Number.isNaN(v)) continue;
      sums[series] += v;
      counts[series] += 1;
    }
    if (!Number.isNaN(value('index'))) last.index = value('index');
  });
  const mean = (series: keyof typeof sums) => (counts[series] === 0 ? null : Math.round((sums[series] / counts[series]) * 100) / 100);
  return { station, slot, temperature: mean('temperature'), humidity: mean('humidity'), dewPoint: mean('dew_point'), index: last.index };
}

/** What the status page's routes read of the recorded series (read-only: nothing here records). */
export interface ChartSeries {
  /** The station histories, once the station side started (undefined before). */
  readonly history: Pick<StationHistoryView, 'buckets' | 'lastReadingAtMs'> | undefined;
  /** The recorded minutes of a station in [fromMinute, toMinute), oldest first. */
  forEachMinute(stationId: string, fromMinute: number, toMinute: number, visit: RecordedMinute): void;
}

export class ChartRecorder implements StationUnit, ChartSeries {
  readonly name = 'status-page';
  readonly #rings = new Map<string, MinuteRing>();
  readonly #persistence: RecorderPersistence | undefined;
  /** Per station, the slot of its newest recorded minute (staged once a later slot begins). */
  readonly #openSlots = new Map<string, number>();
  #store: ChartSeriesStore | undefined;
  #history: StationHistoryView | undefined;

  /** `persistence`: keep the series in the database (without it they live in memory only). */
  constructor(persistence?: RecorderPersistence) {
    this.#persistence = persistence;
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
    if (!this.#persistence) return;
    this.#store = new ChartSeriesStore(this.#persistence.database());
    const newest = context.history.lastReadingAtMs.bind(context.history);
    const latestMs = Math.max(0, ...this.#persistence.stations.map((station) => newest(station) ?? 0));
    const fromSlot = slotOf(minuteOf(latestMs)) - CHART_RETENTION_SLOTS;
    for (const row of await this.#store.load(this.#persistence.stations, fromSlot)) {
      const minute = row.slot * CHART_SLOT_MINUTES;
      const values: Array<[RecordedSeries, number | null]> = [
        ['temperature', row.temperature],
        ['humidity', row.humidity],
        ['dew_point', row.dewPoint],
        ['index', row.index],
      ];
      for (const [series, value] of values) if (value !== null) this.#ring(row.station).set(minute, series, value);
    }
  }

  /** Stages every station's slot in progress for the history's final commit. */
  async stop(): Promise<void> {
    for (const [station, slot] of this.#openSlots) this.#stage(station, slot);
    this.#openSlots.clear();
  }

  /** The station histories, once the pipeline started (undefined before). */
  get history(): StationHistoryView | undefined {
    return this.#history;
  }

  onReading(stationId: string, reading: TimedReading): void {
    const minute = minuteOf(reading.timeMs);
    const { temperature, humidity } = reading.values;
    const dewPoint =
      reading.values.dew_point ??
      (temperature !== undefined && humidity !== undefined ? dewPointMagnusC(temperature, humidity) : undefined);
    if (temperature !== undefined) this.#ring(stationId).set(minute, 'temperature', temperature);
    if (humidity !== undefined) this.#ring(stationId).set(minute, 'humidity', humidity);
    if (dewPoint !== undefined) this.#ring(stationId).set(minute, 'dew_point', dewPoint);
    this.#closeSlots(stationId);
  }

  /** Once a station's newest minute is in a later slot, the slot before is complete: staged for the next commit. */
  #closeSlots(stationId: string): void {
    const ring = this.#rings.get(stationId);
    if (!this.#store || !ring || ring.newestMinute === -1) return;
    const slot = slotOf(ring.newestMinute);
    const open = this.#openSlots.get(stationId);
    if (open !== undefined && open < slot) this.#stage(stationId, open);
    if (open === undefined || open < slot) this.#openSlots.set(stationId, slot);
  }

  #stage(stationId: string, slot: number): void {
    const ring = this.#rings.get(stationId);
    if (this.#store && ring) this.#store.stage(slotRow(ring, stationId, slot));
  }

  /**
   * Records a new state's index at the minute of the reading it was computed from. A state that arrives
   * after its slot was staged (the next reading began a later slot within the debounce) stages it again.
   */
  onState(stationId: string, state: Readonly<RecordableState>): void {
    if (typeof state.index_score !== 'number' || state.last_reading_at === null) return;
    const atMs = Date.parse(state.last_reading_at);
    if (!Number.isFinite(atMs)) return;
    const minute = minuteOf(atMs);
    this.#ring(stationId).set(minute, 'index', state.index_score);
    const open = this.#openSlots.get(stationId);
    if (open !== undefined && slotOf(minute) < open) this.#stage(stationId, slotOf(minute));
  }

  /** The recorded minutes of a station in [fromMinute, toMinute), oldest first. */
  forEachMinute(stationId: string, fromMinute: number, toMinute: number, visit: RecordedMinute): void {
    this.#rings.get(stationId)?.forEach(fromMinute, toMinute, visit);
  }

  #ring(stationId: string): MinuteRing {
    let ring = this.#rings.get(stationId);
    if (!ring) {
      ring = new MinuteRing();
      this.#rings.set(stationId, ring);
    }
    return ring;
  }
}
