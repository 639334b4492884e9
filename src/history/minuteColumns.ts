/**
 * The one-minute buckets of one station as parallel typed arrays sorted by
 * minute, instead of one object per minute in a Map: 25 bytes per minute
 * (about 0.5 MB per station for 14 days) against about 130 bytes, and no
 * garbage-collector work per bucket. Readings arrive in time order, so an
 * insert is almost always an append; pruning advances the start.
 */
import type { BucketRow } from './types.js';

const INITIAL_CAPACITY = 256;

/** Told of every change to the buckets' contents (./windowSummary.ts keeps its sums with it). */
export interface ColumnsListener {
  /** The bucket of `minute` changed (rain, temperature, observed, or a whole row restored). */
  changed(minute: number): void;
  /** The buckets before `minute` were dropped. */
  pruned(minute: number): void;
}

export class MinuteColumns {
  /** Float64, not Int32: any minute a reading can carry fits, as it did in the Map this replaces. */
  #minutes: Float64Array;
  #rain: Float64Array;
  /** NaN: no temperature in this minute. */
  #tempMin: Float64Array;
  #observed: Uint8Array;
  /** Buckets live at indices [#start, #end). */
  #start = 0;
  #end = 0;
  #listener: ColumnsListener | undefined;

  constructor(capacity = INITIAL_CAPACITY) {
    const size = Math.max(1, capacity);
    this.#minutes = new Float64Array(size);
    this.#rain = new Float64Array(size);
    this.#tempMin = new Float64Array(size);
    this.#observed = new Uint8Array(size);
  }

  /** Columns holding `rows` (any order; a later row for the same minute wins). */
  static from(rows: Iterable<BucketRow>, capacity?: number): MinuteColumns {
    const columns = new MinuteColumns(capacity);
    for (const row of rows) columns.put(row);
    return columns;
  }

  /** Tells `listener` of every later change (one listener; a new one replaces it). */
  listen(listener: ColumnsListener): void {
    this.#listener = listener;
  }

  get size(): number {
    return this.#end - this.#start;
  }

  /** Minutes the columns have room for (what they hold in memory). */
  get capacity(): number {
    return this.#minutes.length;
  }

  /** First index holding a bucket (iterate `first` up to `end`). */
  get first(): number {
    return this.#start;
  }

  get end(): number {
    return this.#end;
  }

  minuteAt(index: number): number {
    return this.#minutes[index]!;
  }

  rainAt(index: number): number {
    return this.#rain[index]!;
  }

  tempMinAt(index: number): number | null {
    const value = this.#tempMin[index]!;
    return Number.isNaN(value) ? null : value;
  }

  observedAt(index: number): boolean {
    return this.#observed[index] === 1;
  }

  setRain(index: number, mm: number): void {
    this.#rain[index] = mm;
    this.#listener?.changed(this.#minutes[index]!);
  }

  setTempMin(index: number, celsius: number): void {
    this.#tempMin[index] = celsius;
    this.#listener?.changed(this.#minutes[index]!);
  }

  setObserved(index: number): void {
    this.#observed[index] = 1;
    this.#listener?.changed(this.#minutes[index]!);
  }

  row(index: number): BucketRow {
    return {
      minute: this.minuteAt(index),
      rainMm: this.rainAt(index),
      rainObserved: this.observedAt(index),
      tempMinC: this.tempMinAt(index),
    };
  }

  /** First index whose minute is >= `minute` (`end` when none). */
  lowerBound(minute: number): number {
    let low = this.#start;
    let high = this.#end;
    // Most look-ups are for the newest minute.
    if (high > low && this.#minutes[high - 1]! < minute) return high;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#minutes[middle]! < minute) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Index of the minute's bucket, or -1. */
  indexOf(minute: number): number {
    const index = this.lowerBound(minute);
    return index < this.#end && this.#minutes[index] === minute ? index : -1;
  }

  /** Index of the minute's bucket, adding an empty one (no rain, not observed, no temperature) when missing. */
  upsert(minute: number): number {
    let index = this.lowerBound(minute);
    if (index < this.#end && this.#minutes[index] === minute) return index;
    if (this.#end === this.#minutes.length) {
      this.#makeRoom();
      index = this.lowerBound(minute);
    }
    if (index < this.#end) {
      this.#minutes.copyWithin(index + 1, index, this.#end);
      this.#rain.copyWithin(index + 1, index, this.#end);
      this.#tempMin.copyWithin(index + 1, index, this.#end);
      this.#observed.copyWithin(index + 1, index, this.#end);
    }
    this.#minutes[index] = minute;
    this.#rain[index] = 0;
    this.#tempMin[index] = Number.NaN;
    this.#observed[index] = 0;
    this.#end++;
    return index;
  }

  /** Sets a whole bucket (restoring rows). */
  put(row: BucketRow): void {
    const index = this.upsert(row.minute);
    this.#rain[index] = row.rainMm;
    this.#tempMin[index] = row.tempMinC ?? Number.NaN;
    this.#observed[index] = row.rainObserved ? 1 : 0;
    this.#listener?.changed(row.minute);
  }

  /** Drops the buckets before `minute`. */
  pruneBefore(minute: number): void {
    this.#start = this.lowerBound(minute);
    if (this.#start === this.#end) this.#start = this.#end = 0;
    this.#listener?.pruned(minute);
  }

  /** Moves the buckets to the front, doubling the arrays when more than half full. */
  #makeRoom(): void {
    const size = this.size;
    // Grow only when moving the pruned head out would leave less than a sixteenth free: a restored
    // 14-day history (restored with a day of headroom) then stays at its size, where doubling
    // whenever more than half full kept twice the columns for good (bench/NOTES.md, "Where the
    // array buffers of a running household daemon are").
    const capacity = size * 16 > this.#minutes.length * 15 ? this.#minutes.length * 2 : this.#minutes.length;
    const move = <T extends Float64Array | Uint8Array>(array: T, make: (n: number) => T): T => {
      const target = capacity === array.length ? array : make(capacity);
      target.set(array.subarray(this.#start, this.#end));
      return target;
    };
    this.#minutes = move(this.#minutes, (n) => new Float64Array(n));
    this.#rain = move(this.#rain, (n) => new Float64Array(n));
    this.#tempMin = move(this.#tempMin, (n) => new Float64Array(n));
    this.#observed = move(this.#observed, (n) => new Uint8Array(n));
    this.#start = 0;
    this.#end = size;
  }
}
