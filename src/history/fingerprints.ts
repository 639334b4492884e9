/**
 * The duplicate filter of one station: which reading contents arrived at
 * which reading times. A reading is a duplicate when the same content was
 * seen within `windowMs` of its time (repeated radio packets), which
 * includes the exact same time (a QoS 1 redelivery, however late). Entries
 * are persisted with the history, so the filter survives a restart.
 */

export interface FingerprintRow {
  /** 53-bit hash of the reading's content fingerprint. */
  hash: number;
  /** Reading time, epoch ms. */
  atMs: number;
}

/** Bounds memory and the table; at one packet per 2.5 s (WeeWX loop) this still remembers 3.5 h. */
export const MAX_FINGERPRINTS = 5000;

/**
 * A 53-bit content hash, so a fingerprint (a JSON string of the payload) is
 * stored as one SQLite INTEGER. Two independent 32-bit FNV-1a style lanes;
 * a collision would also need a reading time within the duplicate window.
 */
export function hashFingerprint(fingerprint: string): number {
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let i = 0; i < fingerprint.length; i++) {
    const code = fingerprint.charCodeAt(i);
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x5bd1e995);
    low ^= low >>> 15;
  }
  return (high >>> 0) * 0x200000 + ((low >>> 0) >>> 11);
}

export class FingerprintFilter {
  readonly #windowMs: number;
  readonly #retentionMs: number;
  /** hash → reading times seen with it. */
  readonly #timesByHash = new Map<number, Set<number>>();
  /** Insertion order, oldest first, for eviction. Key: `${hash}@${atMs}`. */
  readonly #order = new Map<string, FingerprintRow>();
  readonly #added = new Map<string, FingerprintRow>();
  #newestMs = 0;

  constructor(windowMs: number, retentionMs: number, rows: readonly FingerprintRow[] = []) {
    this.#windowMs = windowMs;
    this.#retentionMs = retentionMs;
    for (const row of [...rows].sort((a, b) => a.atMs - b.atMs)) this.#remember(row);
    this.#evict();
  }

  get size(): number {
    return this.#order.size;
  }

  get dirty(): boolean {
    return this.#added.size > 0;
  }

  /** True for content seen within the window of `atMs`; otherwise remembers it and returns false. */
  seen(fingerprint: string, atMs: number): boolean {
    const hash = hashFingerprint(fingerprint);
    const times = this.#timesByHash.get(hash);
    if (times) {
      for (const at of times) if (Math.abs(atMs - at) <= this.#windowMs) return true;
    }
    const row = { hash, atMs };
    this.#remember(row);
    this.#added.set(keyOf(row), row);
    this.#evict();
    return false;
  }

  #remember(row: FingerprintRow): void {
    const key = keyOf(row);
    if (this.#order.has(key)) return;
    this.#order.set(key, row);
    let times = this.#timesByHash.get(row.hash);
    if (!times) {
      times = new Set();
      this.#timesByHash.set(row.hash, times);
    }
    times.add(row.atMs);
    this.#newestMs = Math.max(this.#newestMs, row.atMs);
  }

  #forget(key: string, row: FingerprintRow): void {
    this.#order.delete(key);
    this.#added.delete(key);
    const times = this.#timesByHash.get(row.hash);
    times?.delete(row.atMs);
    if (times?.size === 0) this.#timesByHash.delete(row.hash);
  }

  #evict(): void {
    for (const [key, row] of this.#order) {
      if (this.#order.size <= MAX_FINGERPRINTS && row.atMs >= this.#newestMs - this.#retentionMs) break;
      this.#forget(key, row);
    }
  }

  /** Drops entries older than the retention at `nowMs`. */
  prune(nowMs: number): void {
    for (const [key, row] of this.#order) if (row.atMs < nowMs - this.#retentionMs) this.#forget(key, row);
  }

  /** Entries remembered since the last call, for the store's next batch. */
  takeAdded(): FingerprintRow[] {
    const added = [...this.#added.values()];
    this.#added.clear();
    return added;
  }

  rows(): FingerprintRow[] {
    return [...this.#order.values()].map((row) => ({ ...row })).sort((a, b) => a.atMs - b.atMs || a.hash - b.hash);
  }
}

function keyOf(row: FingerprintRow): string {
  return `${row.hash}@${row.atMs}`;
}
