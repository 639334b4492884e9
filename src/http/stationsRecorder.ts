/**
 * The status page's memory of what SQLite does not keep: per station a ring
 * of one slot per minute for the last 14 days holding temperature, humidity,
 * dew point and the index. The history store keeps only rain and the lowest
 * temperature per minute, so after a restart these series start empty (the
 * temperature chart falls back to the stored minute minima).
 *
 * It is a StationUnit: it observes every accepted reading (onReading) and the
 * state the pipeline published before it, and it keeps the history view it
 * gets at start for the endpoints. No timer, no I/O: work happens only on a
 * reading or a request. Memory: 20 bytes per slot, about 400 KB per station,
 * allocated on the station's first reading.
 */
import { dewPointMagnusC } from '../core/physics.js';
import type { TimedReading } from '../history/stationHistory.js';
import { RETENTION_MINUTES, minuteOf } from '../history/windows.js';
import type { StationHistoryView, StationUnit, UnitContext } from '../station/unit.js';

/** The series the ring holds, in slot order. */
export const RECORDED_SERIES = ['temperature', 'humidity', 'dew_point', 'index'] as const;
export type RecordedSeries = (typeof RECORDED_SERIES)[number];

/** What the recorder reads from a published state. */
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

export class StationsRecorder implements StationUnit {
  readonly name = 'status-page';
  readonly #stateOf: (stationId: string) => RecordableState | undefined;
  readonly #rings = new Map<string, MinuteRing>();
  #history: StationHistoryView | undefined;

  /** `stateOf`: the last state the pipeline published for a station (read lazily: it may not exist yet). */
  constructor(stateOf: (stationId: string) => RecordableState | undefined) {
    this.#stateOf = stateOf;
  }

  async start(context: UnitContext): Promise<void> {
    this.#history = context.history;
  }

  /** The station histories, once the pipeline started (undefined before, and with MQTT off). */
  get history(): StationHistoryView | undefined {
    return this.#history;
  }

  onReading(stationId: string, reading: TimedReading): void {
    const minute = minuteOf(reading.timeMs);
    const { temperature, humidity } = reading.values;
    const dewPoint = reading.values.dew_point ?? (temperature !== undefined && humidity !== undefined ? dewPointMagnusC(temperature, humidity) : undefined);
    if (temperature !== undefined) this.#ring(stationId).set(minute, 'temperature', temperature);
    if (humidity !== undefined) this.#ring(stationId).set(minute, 'humidity', humidity);
    if (dewPoint !== undefined) this.#ring(stationId).set(minute, 'dew_point', dewPoint);
    // The state published so far belongs to the previous reading; this reading's state follows after the debounce.
    this.noteState(stationId);
  }

  /** Records the index of the station's last published state at the minute of the reading it was computed from. */
  noteState(stationId: string): void {
    const state = this.#stateOf(stationId);
    if (!state || typeof state.index_score !== 'number' || state.last_reading_at === null) return;
    const atMs = Date.parse(state.last_reading_at);
    if (Number.isFinite(atMs)) this.#ring(stationId).set(minuteOf(atMs), 'index', state.index_score);
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
