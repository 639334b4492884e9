/**
 * The rolling history of one station, in memory and free of I/O: one-minute
 * buckets of rain increments and minimum temperature over 14 days, rain
 * counter baselines, the latest value of each current field, and the
 * duplicate filter. The SQLite store persists what `takeChanges()` returns
 * (the filter's high-water mark in the same batch as the data it let in, so
 * a redelivery after a crash or restart is counted exactly once) and hands
 * the rows back to the constructor on start.
 */
import type { FieldName } from '../core/fields.js';
import type { ObservedHistory } from '../core/forecastProjection.js';
import type { CurrentField, Reading } from '../ingest/types.js';
import { CURRENT_FIELDS } from '../ingest/types.js';
import { MAX_FUTURE_SKEW_MS } from '../ingest/time.js';
import { assembleInput, round, type Assembly } from './assembly.js';
import { DuplicateFilter, type DuplicateFilterState } from './fingerprints.js';
import { MinuteColumns } from './minuteColumns.js';
import { WindowSummary } from './windowSummary.js';
import { addToMinute, clampToSpecMax, MAX_PENDING_ANOMALIES, type RainAnomaly } from './rainPlausibility.js';
import type { BucketRow, CounterRow, HistoryRows, LatestRow } from './types.js';
import { MINUTE_MS, RETENTION_MINUTES, minuteOf } from './windows.js';

export type CounterResetPolicy = 'ignore' | 'count';

export interface HistoryOptions {
  /** On a counter decrease: 'ignore' the interval (WeeWX) or 'count' the new total as rain (interceptor). */
  counterResetPolicy: CounterResetPolicy;
  /** Largest rain increment believed from one counter step or delta (mm); larger ones are capped. */
  maxRainIncrementMm: number;
  /** Readings further apart than this leave a gap in coverage (minutes). */
  maxGapMinutes: number;
  /** Identical content within this time is a repeated transmission (ms). */
  duplicateWindowMs: number;
  /** Current values older than this are not supplied (ms). */
  freshnessMs: number;
  fieldFreshnessMs?: Partial<Record<CurrentField, number>>;
}

export const DEFAULT_HISTORY_OPTIONS: HistoryOptions = {
  counterResetPolicy: 'ignore',
  maxRainIncrementMm: 50,
  maxGapMinutes: 15,
  duplicateWindowMs: 10_000,
  freshnessMs: 30 * MINUTE_MS,
};

export type { BucketRow, CounterRow, HistoryRows, LatestRow };

/** What the store hands back on start: the buckets may come as columns already (no object per minute). */
export type RestoredRows = Partial<Omit<HistoryRows, 'buckets'>> & { buckets?: BucketRow[] | MinuteColumns };

export type { Assembly, DuplicateFilterState, RainAnomaly };

export interface TimedReading extends Reading {
  /** Reading time, epoch ms (payload time or arrival time). */
  timeMs: number;
  /** Rain the history booked from this reading (mm), set once it was accepted (for the station units). */
  bookedRainMm?: number;
  /**
   * Set once it was accepted. True: a rain counter of this reading had no usable baseline (its
   * first sight since the history began or lost it, or a step from beyond the retention), so the
   * rain up to this reading is unknown, not zero. False: its rain was observed (a counter step, a
   * delta, a rate). Absent: the reading said nothing about rain.
   */
  rainUnknown?: boolean;
  /**
   * Set once it was accepted, only when true: the history held a counter baseline, a value or a
   * reading time stamped after the wall clock at arrival (plus the skew tolerance), so the clock
   * was set back since (for instance restored after a power cut, before any step could be seen).
   */
  historyAheadOfClock?: boolean;
}

export type IngestResult = 'accepted' | 'duplicate';

const RETENTION_MS = RETENTION_MINUTES * MINUTE_MS;

export class StationHistory {
  readonly #options: HistoryOptions;
  readonly #buckets: MinuteColumns;
  /** The rain and temperature windows, kept up to date with the buckets. */
  readonly #windows: WindowSummary;
  readonly #counters = new Map<string, CounterRow>();
  readonly #latest = new Map<CurrentField, LatestRow>();
  readonly #duplicates: DuplicateFilter;
  readonly #dirtyBuckets = new Set<number>();
  readonly #dirtyCounters = new Set<string>();
  readonly #dirtyLatest = new Set<CurrentField>();
  #anomalies: RainAnomaly[] = [];
  #lastRate: { rateMmH: number; atMs: number } | undefined;
  #hasRainAmounts = false;
  #lastReadingAtMs: number | null = null;
  #bookedMm = 0;
  #rainUnknown: boolean | undefined;
  #aheadOfClock = false;

  constructor(options: HistoryOptions, rows?: RestoredRows) {
    this.#options = options;
    this.#duplicates = new DuplicateFilter(options.duplicateWindowMs, rows?.duplicates ?? null);
    const buckets = rows?.buckets;
    this.#buckets = buckets instanceof MinuteColumns ? buckets : MinuteColumns.from(buckets ?? [], buckets?.length);
    this.#windows = new WindowSummary(this.#buckets, options.maxGapMinutes);
    for (const counter of rows?.counters ?? []) this.#counters.set(counter.key, { ...counter });
    for (const latest of rows?.latest ?? []) this.#latest.set(latest.field, { ...latest });
    if (this.#counters.size > 0) this.#hasRainAmounts = true;
    for (const latest of this.#latest.values()) this.#noteReadingTime(latest.atMs);
    for (const counter of this.#counters.values()) this.#noteReadingTime(counter.atMs);
    for (let i = this.#buckets.first; i < this.#buckets.end && !this.#hasRainAmounts; i++) {
      if (this.#buckets.observedAt(i) && this.#buckets.rainAt(i) > 0) this.#hasRainAmounts = true;
    }
  }

  /** Minute buckets held. */
  get bucketCount(): number {
    return this.#buckets.size;
  }

  get lastReadingAtMs(): number | null {
    return this.#lastReadingAtMs;
  }

  /** Rain booked by the last ingest (mm; 0 for a duplicate). */
  get lastIngestRainMm(): number {
    return this.#bookedMm;
  }

  /** What the last ingest knew of its rain (TimedReading.rainUnknown): true unknown, false observed, undefined nothing said. */
  get lastIngestRainUnknown(): boolean | undefined {
    return this.#rainUnknown;
  }

  /** The last ingest found data stamped after its wall clock (TimedReading.historyAheadOfClock). */
  get lastIngestAheadOfClock(): boolean {
    return this.#aheadOfClock;
  }

  get dirty(): boolean {
    return this.#dirtyBuckets.size + this.#dirtyCounters.size + this.#dirtyLatest.size > 0 || this.#duplicates.dirty;
  }

  #noteReadingTime(timeMs: number, nowMs = Number.POSITIVE_INFINITY): void {
    // A last reading stamped in the future (the clock stepped back since) gives way to the new one.
    const future = this.#lastReadingAtMs !== null && this.#lastReadingAtMs > nowMs + MAX_FUTURE_SKEW_MS;
    if (this.#lastReadingAtMs === null || timeMs > this.#lastReadingAtMs || future) this.#lastReadingAtMs = timeMs;
  }

  /** Index of the minute's bucket (created when missing), marked for the next batch. */
  #bucket(minute: number): number {
    this.#dirtyBuckets.add(minute);
    return this.#buckets.upsert(minute);
  }

  #addRain(minute: number, mm: number): void {
    if (mm <= 0) return;
    const capped = Math.min(mm, this.#options.maxRainIncrementMm);
    this.#bookedMm += capped;
    const index = this.#bucket(minute);
    const { totalMm, excessMm } = addToMinute(this.#buckets.rainAt(index), capped);
    this.#buckets.setRain(index, round(totalMm, 6));
    if (excessMm > 0) this.#noteAnomaly({ kind: 'minute-capped', minute, excessMm });
  }

  /** Implausible rain seen since the last call (capped minutes, clamped windows), for the caller to log. */
  takeAnomalies(): RainAnomaly[] {
    return this.#anomalies.splice(0);
  }

  #noteAnomaly(anomaly: RainAnomaly): void {
    if (this.#anomalies.length < MAX_PENDING_ANOMALIES) this.#anomalies.push(anomaly);
  }

  /** A value derived from rain buckets, never above the field's maximum (where the core would ignore it). */
  #plausible(field: FieldName, value: number): number {
    const clamped = clampToSpecMax(field, value);
    if (clamped.clamped) this.#noteAnomaly({ kind: 'window-clamped', field, value, max: clamped.value });
    return clamped.value;
  }

  /**
   * Adds a reading. Repeated transmissions and redeliveries return 'duplicate' and change nothing.
   * `nowMs` is the wall clock at arrival: what the history holds stamped beyond it (plus the skew
   * tolerance) was stamped by a clock that has since stepped back, and never hides a new reading.
   */
  ingest(reading: TimedReading, nowMs = Number.POSITIVE_INFINITY): IngestResult {
    const timeMs = reading.timeMs;
    const futureMs = nowMs + MAX_FUTURE_SKEW_MS;
    this.#bookedMm = 0;
    this.#rainUnknown = undefined;
    this.#aheadOfClock = this.#lastReadingAtMs !== null && this.#lastReadingAtMs > futureMs;
    if (this.#duplicates.seen(reading.fingerprint, timeMs, nowMs)) return 'duplicate';
    const minute = minuteOf(timeMs);
    const gapMs = this.#options.maxGapMinutes * MINUTE_MS;

    const temperature = reading.values.temperature;
    if (temperature !== undefined) {
      const index = this.#bucket(minute);
      const lowest = this.#buckets.tempMinAt(index);
      this.#buckets.setTempMin(index, lowest === null ? temperature : Math.min(lowest, temperature));
    }

    let rainObserved = false;
    let rainUnknown = false;
    if (reading.rainDeltaMm !== undefined) {
      this.#hasRainAmounts = true;
      this.#addRain(minute, reading.rainDeltaMm);
      rainObserved = true;
    }
    for (const counter of reading.rainCounters) {
      this.#hasRainAmounts = true;
      const previous = this.#counters.get(counter.key);
      // A baseline stamped in the future (the clock stepped back since) is the last total seen, at an unknown time.
      const futureBaseline = previous !== undefined && previous.atMs > futureMs;
      if (previous && timeMs <= previous.atMs && !futureBaseline) continue; // older than the baseline: nothing to learn
      this.#counters.set(counter.key, { key: counter.key, totalMm: counter.totalMm, atMs: timeMs });
      this.#dirtyCounters.add(counter.key);
      if (!previous) {
        // First sight sets the baseline only: how much rain came before it is unknown, not zero.
        rainUnknown = true;
        continue;
      }
      const step = counter.totalMm - previous.totalMm;
      const increment = step >= 0 ? step : this.#options.counterResetPolicy === 'count' ? counter.totalMm : 0;
      // After a gap we do not know when it rained: book it at the start of the gap, which is not covered.
      const atMinute = !futureBaseline && timeMs - previous.atMs > gapMs ? minuteOf(previous.atMs) : minute;
      if (atMinute > minuteOf(timeMs) - RETENTION_MINUTES) this.#addRain(atMinute, increment);
      else if (increment > 0) rainUnknown = true; // rain from beyond the retention: when it fell is unknown
      rainObserved = true;
    }
    const rate = reading.values.precipitation_rate;
    if (rate !== undefined && !this.#hasRainAmounts) {
      const last = this.#lastRate !== undefined && this.#lastRate.atMs > futureMs ? undefined : this.#lastRate;
      if (last && timeMs > last.atMs && timeMs - last.atMs <= gapMs) {
        this.#addRain(minute, (last.rateMmH * (timeMs - last.atMs)) / 3_600_000);
      }
      if (!last || timeMs > last.atMs) this.#lastRate = { rateMmH: rate, atMs: timeMs };
      rainObserved = true;
    }
    if (rainObserved) this.#buckets.setObserved(this.#bucket(minute));
    this.#rainUnknown = rainUnknown ? true : rainObserved ? false : undefined;

    for (const field of CURRENT_FIELDS) {
      const value = reading.values[field];
      if (value === undefined) continue;
      const latest = this.#latest.get(field);
      if (latest && latest.atMs > timeMs && latest.atMs <= futureMs) continue;
      this.#latest.set(field, { field, value, atMs: timeMs });
      this.#dirtyLatest.add(field);
    }
    this.#noteReadingTime(timeMs, nowMs);
    return 'accepted';
  }

  /**
   * The wall clock stepped by `deltaMs` (now `nowMs`). Rain baselines the old clock stamped within
   * the gap limit of its "now" move with the step: the next counter step is this interval's rain,
   * not rain spread over a gap that never was (a year after a forward step). The duplicate filter
   * forgets a floor and entries stamped beyond now (they would refuse every new reading until the
   * clock caught up). Current values and buckets stamped in the future stay: new readings
   * supersede them, they are never fresh and lie outside every window. True when something changed.
   */
  clockStepped(nowMs: number, deltaMs = 0): boolean {
    const oldNowMs = nowMs - deltaMs;
    const recentMs = oldNowMs - this.#options.maxGapMinutes * MINUTE_MS;
    let changed = false;
    for (const counter of this.#counters.values()) {
      if (deltaMs === 0 || counter.atMs < recentMs || counter.atMs > oldNowMs + MAX_FUTURE_SKEW_MS) continue;
      counter.atMs += deltaMs;
      this.#dirtyCounters.add(counter.key);
      changed = true;
    }
    const rate = this.#lastRate;
    if (rate && deltaMs !== 0 && rate.atMs >= recentMs && rate.atMs <= oldNowMs + MAX_FUTURE_SKEW_MS)
      this.#lastRate = { ...rate, atMs: rate.atMs + deltaMs };
    return this.#duplicates.repair(nowMs + MAX_FUTURE_SKEW_MS) || changed;
  }

  /** Drops buckets, counter baselines and duplicate-filter entries older than the 14-day retention. */
  prune(nowMs: number): void {
    const oldestMinute = minuteOf(nowMs) - RETENTION_MINUTES;
    this.#buckets.pruneBefore(oldestMinute);
    for (const [key, counter] of this.#counters) if (counter.atMs < nowMs - RETENTION_MS) this.#counters.delete(key);
    this.#duplicates.prune(nowMs - RETENTION_MS);
  }

  /** Rows changed since the last call, for the store's next batch. */
  takeChanges(): HistoryRows {
    const changes: HistoryRows = {
      buckets: [...this.#dirtyBuckets].flatMap((minute) => {
        const index = this.#buckets.indexOf(minute);
        return index < 0 ? [] : [this.#buckets.row(index)];
      }),
      counters: [...this.#dirtyCounters].flatMap((key) => {
        const counter = this.#counters.get(key);
        return counter ? [{ ...counter }] : [];
      }),
      latest: [...this.#dirtyLatest].flatMap((field) => {
        const latest = this.#latest.get(field);
        return latest ? [{ ...latest }] : [];
      }),
      duplicates: this.#duplicates.takeState(),
    };
    this.#dirtyBuckets.clear();
    this.#dirtyCounters.clear();
    this.#dirtyLatest.clear();
    return changes;
  }

  /** Every row, for tests and diagnostics. */
  rows(): HistoryRows {
    return {
      buckets: this.#rowsBetween(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY),
      counters: [...this.#counters.values()].map((counter) => ({ ...counter })),
      latest: [...this.#latest.values()].map((latest) => ({ ...latest })),
      duplicates: this.#duplicates.state,
    };
  }

  /** The minute buckets from `fromMs` up to and including `toMs`, oldest first (copies). */
  buckets(fromMs: number, toMs: number): BucketRow[] {
    return this.#rowsBetween(minuteOf(fromMs), minuteOf(toMs));
  }

  #rowsBetween(fromMinute: number, toMinute: number): BucketRow[] {
    const rows: BucketRow[] = [];
    for (let i = this.#buckets.lowerBound(fromMinute); i < this.#buckets.end && this.#buckets.minuteAt(i) <= toMinute; i++)
      rows.push(this.#buckets.row(i));
    return rows;
  }

  /** Rain and lowest temperature from any time on, over the minutes from `fromMs` that began before `toMs` (the forecast's observed part). */
  observed(fromMs: number, toMs: number): ObservedHistory {
    return this.#windows.observed(minuteOf(fromMs), Math.ceil(toMs / MINUTE_MS) - 1);
  }

  /** The calculation input this history supports at `nowMs`. */
  assemble(nowMs: number): Assembly {
    return assembleInput(
      {
        latest: this.#latest,
        windows: this.#windows,
        options: this.#options,
        rainSeen: this.#hasRainAmounts || this.#lastRate !== undefined,
        lastReadingAtMs: this.#lastReadingAtMs,
        plausible: (field, value) => this.#plausible(field, value),
      },
      nowMs,
    );
  }
}

export { MINUTE_MS };
