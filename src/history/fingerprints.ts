/**
 * The duplicate filter of one station. A reading is a duplicate when
 *  - the same content was seen within `windowMs` of its reading time
 *    (repeated radio packets), which includes the exact same time (a QoS 1
 *    redelivery), or
 *  - its reading time is at or before the filter's floor: the newest reading
 *    time the history had stored when the daemon started (the high-water
 *    mark, persisted in the same transaction as the data it let in), or the
 *    time of the newest entry evicted from the exact memory below.
 *    The entries within the window of the high-water mark are persisted
 *    with it, so a radio repeat of the newest stored reading is still
 *    recognised after a restart.
 *
 * So a redelivery is refused for the whole history (14 days), however many
 * readings came in between, while memory stays bounded: the exact entries
 * (reading time + 32-bit content hash, 12 bytes each) are capped at
 * MAX_EXACT_ENTRIES per station, and SQLite holds one row per station
 * instead of one per reading. The price: a reading that arrives late
 * (behind the floor) is refused even when it is new; stations and brokers
 * deliver in order, and a late one would be behind the rain counter
 * baselines anyway.
 */

import { MAX_FUTURE_SKEW_MS as FUTURE_TOLERANCE_MS } from '../ingest/time.js';

/**
 * At a station's pace (one packet per 16 s) about 36 hours of exact memory, 123 KB per station at
 * most (with slack); older redeliveries are refused by the floor anyway. 100,000 entries (1.5 MB per
 * station, reached after ~12 days) cost 15 MB on a 10-station daemon for out-of-order readings
 * more than a day and a half late.
 */
export const MAX_EXACT_ENTRIES = 8_192;
const INITIAL_CAPACITY = 1024;
/** Slack behind the cap: compacting once per quarter of the cap keeps appends amortised O(1). */
const SLACK = 1.25;

/** What survives a restart: one row per station. */
export interface DuplicateFilterState {
  /** The newest reading time let in, epoch ms. */
  highWaterMs: number;
  /** [reading time, content hash] of the entries within the duplicate window of the high-water mark. */
  recent: Array<[number, number]>;
}

/**
 * A 32-bit FNV-1a hash of the content fingerprint (a JSON string of the
 * payload). A false duplicate needs a collision AND a reading time within
 * the duplicate window of the other content.
 */
export function hashFingerprint(fingerprint: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < fingerprint.length; i++) hash = Math.imul(hash ^ fingerprint.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class DuplicateFilter {
  readonly #windowMs: number;
  readonly #maxEntries: number;
  /** Entries [#start, #end) sorted by time; hashes parallel. */
  #times = new Float64Array(INITIAL_CAPACITY);
  #hashes = new Uint32Array(INITIAL_CAPACITY);
  #start = 0;
  #end = 0;
  /** Reading times at or before this are duplicates. */
  #floorMs: number;
  #highWaterMs: number | null;
  #dirty = false;

  /** `state`: what a previous run stored (null for a new station). */
  constructor(windowMs: number, state: DuplicateFilterState | null = null, maxEntries = MAX_EXACT_ENTRIES) {
    this.#windowMs = windowMs;
    this.#maxEntries = maxEntries;
    this.#highWaterMs = state?.highWaterMs ?? null;
    this.#floorMs = state?.highWaterMs ?? Number.NEGATIVE_INFINITY;
    for (const [atMs, hash] of [...(state?.recent ?? [])].sort((a, b) => a[0] - b[0])) this.#insert(atMs, hash);
  }

  /** Exact entries held in memory. */
  get size(): number {
    return this.#end - this.#start;
  }

  /** The high-water mark changed since the last takeHighWater(). */
  get dirty(): boolean {
    return this.#dirty;
  }

  /** The state to persist, or null before the first reading. */
  get state(): DuplicateFilterState | null {
    if (this.#highWaterMs === null) return null;
    const recent: Array<[number, number]> = [];
    for (let i = this.#lowerBound(this.#highWaterMs - this.#windowMs); i < this.#end; i++) recent.push([this.#times[i]!, this.#hashes[i]!]);
    return { highWaterMs: this.#highWaterMs, recent };
  }

  /**
   * True for a duplicate; otherwise remembers the reading and returns false. `nowMs`: the wall
   * clock at arrival; a floor stamped beyond it (plus the skew tolerance) is repaired first.
   */
  seen(fingerprint: string, atMs: number, nowMs = Number.POSITIVE_INFINITY): boolean {
    if (this.#floorMs > nowMs + FUTURE_TOLERANCE_MS || (this.#highWaterMs ?? 0) > nowMs + FUTURE_TOLERANCE_MS)
      this.repair(nowMs + FUTURE_TOLERANCE_MS);
    if (atMs <= this.#floorMs) return true;
    const hash = hashFingerprint(fingerprint);
    for (let i = this.#lowerBound(atMs - this.#windowMs); i < this.#end && this.#times[i]! <= atMs + this.#windowMs; i++) {
      if (this.#hashes[i] === hash) return true;
    }
    this.#insert(atMs, hash);
    if (this.#highWaterMs === null || atMs > this.#highWaterMs) {
      this.#highWaterMs = atMs;
      this.#dirty = true;
    }
    return false;
  }

  /**
   * Forgets what lies beyond `limitMs` (stamped by a clock that stepped back): exact entries, the
   * floor and the high-water mark come back to the newest entry at or before it. True when changed.
   */
  repair(limitMs: number): boolean {
    const floorBeyond = this.#floorMs > limitMs;
    const highBeyond = this.#highWaterMs !== null && this.#highWaterMs > limitMs;
    if (!floorBeyond && !highBeyond) return false;
    this.#end = Math.max(this.#start, this.#lowerBound(limitMs + 1));
    if (floorBeyond) this.#floorMs = Number.NEGATIVE_INFINITY;
    this.#highWaterMs =
      this.#end > this.#start ? this.#times[this.#end - 1]! : this.#floorMs === Number.NEGATIVE_INFINITY ? null : this.#floorMs;
    this.#dirty = true;
    return true;
  }

  /** Drops exact entries older than `oldestMs`; readings that old are refused before they get here. */
  prune(oldestMs: number): void {
    this.#start = this.#lowerBound(oldestMs);
    if (this.#start === this.#end) this.#start = this.#end = 0;
  }

  /** The state for the store's next batch, or null when unchanged. */
  takeState(): DuplicateFilterState | null {
    if (!this.#dirty) return null;
    this.#dirty = false;
    return this.state;
  }

  /** First index in [#start, #end) whose time is >= atMs. */
  #lowerBound(atMs: number): number {
    let low = this.#start;
    let high = this.#end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#times[middle]! < atMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #insert(atMs: number, hash: number): void {
    if (this.size === this.#maxEntries) {
      // Forget the oldest entry exactly, but keep refusing its time and anything before.
      this.#floorMs = Math.max(this.#floorMs, this.#times[this.#start]!);
      this.#start++;
    }
    if (this.#end === this.#times.length) this.#makeRoom();
    // Readings mostly arrive in time order: usually this is an append.
    let at = this.#end;
    while (at > this.#start && this.#times[at - 1]! > atMs) at--;
    if (at < this.#end) {
      this.#times.copyWithin(at + 1, at, this.#end);
      this.#hashes.copyWithin(at + 1, at, this.#end);
    }
    this.#times[at] = atMs;
    this.#hashes[at] = hash;
    this.#end++;
  }

  /** Moves the entries to the front, growing the arrays (doubling, up to the cap plus slack) when more than half full. */
  #makeRoom(): void {
    const size = this.size;
    const limit = Math.ceil(this.#maxEntries * SLACK) + 1;
    const capacity = size * 2 > this.#times.length ? Math.min(limit, this.#times.length * 2) : this.#times.length;
    const times = capacity === this.#times.length ? this.#times : new Float64Array(capacity);
    const hashes = capacity === this.#hashes.length ? this.#hashes : new Uint32Array(capacity);
    times.set(this.#times.subarray(this.#start, this.#end));
    hashes.set(this.#hashes.subarray(this.#start, this.#end));
    this.#times = times;
    this.#hashes = hashes;
    this.#start = 0;
    this.#end = size;
  }
}
