/**
 * SQLite adapter for station histories: loads every station's rows on start
 * in one ordered scan and writes changed rows in one transaction per batch
 * (shared with the retained messages, see sharedCommit.ts). Schema of
 * migration 9: one `history_stations` row per station (latest values,
 * counter baselines, high-water mark, mowable state) and `history_minutes`
 * keyed by (minute, station slot), so a commit writes about two pages
 * (the row formats come first below). The history logic itself is in
 * src/history (pure); this file only maps rows.
 */
import { MinuteColumns } from '../history/minuteColumns.js';
import type { RestoredRows } from '../history/stationHistory.js';
import type { HistoryRows, CounterRow, LatestRow } from '../history/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../history/windows.js';
import type { Database } from './database.js';
import { CURRENT_FIELDS, type CurrentField } from '../ingest/types.js';
import { BUCKET_SLOT_BITS } from './migrations/009_historyStationRows.js';

/*
 * The row formats of migration 9, pure: a station's latest values and
 * counter baselines as JSON objects in its one `history_stations` row
 * ({"field": [value, atMs]}, {"counterKey": [totalMm, atMs]}), and the
 * bucket key that orders `history_minutes` by (minute, station slot).
 * Changes go to SQLite as JSON merge patches (RFC 7396, SQLite's
 * json_patch), so a commit needs only the changed entries.
 */
const SLOTS = 2 ** BUCKET_SLOT_BITS;
/** Room after a restored history: a day of minutes, so the columns move their pruned head out instead of doubling. */
const RESTORE_HEADROOM_MINUTES = 1440;
/** Slots a database can number (station ids ever stored); the key's low bits. */
export const MAX_SLOT = SLOTS - 1;

export function bucketKey(minute: number, slot: number): number {
  return minute * SLOTS + slot;
}

export function bucketMinute(key: number): number {
  return Math.floor(key / SLOTS);
}

export function bucketSlot(key: number): number {
  return key - bucketMinute(key) * SLOTS;
}

/** Entries of a JSON object of [number, number] pairs; anything damaged is skipped (it costs one value until the next reading). */
function pairs(text: string): Array<[string, number, number]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, pair]): Array<[string, number, number]> =>
    Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'number' && typeof pair[1] === 'number' && pair.every(Number.isFinite)
      ? [[key, pair[0], pair[1]]]
      : [],
  );
}

const FIELDS: ReadonlySet<string> = new Set(CURRENT_FIELDS);

export function decodeLatest(text: string): LatestRow[] {
  return pairs(text).flatMap(([field, value, atMs]) => (FIELDS.has(field) ? [{ field: field as CurrentField, value, atMs }] : []));
}

export function decodeCounters(text: string): CounterRow[] {
  return pairs(text).map(([key, totalMm, atMs]) => ({ key, totalMm, atMs }));
}

export function latestPatch(rows: readonly LatestRow[]): string {
  return JSON.stringify(Object.fromEntries(rows.map((row) => [row.field, [row.value, row.atMs]])));
}

export function countersPatch(rows: readonly CounterRow[]): string {
  return JSON.stringify(Object.fromEntries(rows.map((row) => [row.key, [row.totalMm, row.atMs]])));
}

/** The duplicate filter's recent entries; a damaged value only costs the radio-repeat memory of one restart. */
export function decodeRecent(text: string): Array<[number, number]> {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((pair): pair is [number, number] => Array.isArray(pair) && pair.length === 2 && pair.every(Number.isFinite));
  } catch {
    return [];
  }
}

export interface StationStateRow {
  station: string;
  mowable: boolean;
  aboveSinceMs: number | null;
}

export interface HistoryBatch {
  histories: ReadonlyArray<{ station: string; changes: HistoryRows }>;
  states: readonly StationStateRow[];
}

/** Rows per INSERT statement; 4 parameters each stays far below SQLite's variable limit. */
const CHUNK = 200;
/** Bucket rows per page of the start-up scan: bounds the row objects alive at once (the peak RSS at start). */
const LOAD_PAGE = 4096;

export interface RestoredStation {
  rows: RestoredRows;
  state: StationStateRow | undefined;
}

interface StationRow {
  slot: number;
  station: string;
  latest: string;
  counters: string;
  high_water_ms: number | null;
  recent: string;
  mowable: number | null;
  above_since_ms: number | null;
}

async function insertChunked<T>(
  db: Database,
  head: string,
  placeholders: string,
  rows: readonly T[],
  params: (row: T) => unknown[],
  tail: string,
): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    await db.run(`${head} VALUES ${chunk.map(() => placeholders).join(', ')} ${tail}`, chunk.flatMap(params));
  }
}

function restoreStation(entry: RestoredStation, row: StationRow): void {
  entry.rows.counters = decodeCounters(row.counters);
  entry.rows.latest = decodeLatest(row.latest);
  entry.rows.duplicates = row.high_water_ms === null ? null : { highWaterMs: row.high_water_ms, recent: decodeRecent(row.recent) };
  if (row.mowable !== null) entry.state = { station: row.station, mowable: row.mowable === 1, aboveSinceMs: row.above_since_ms };
}

export class HistoryStore {
  readonly #db: Database;
  /** Station id → slot (its history_stations row), the low bits of its bucket keys. */
  readonly #slots = new Map<string, number>();

  constructor(db: Database) {
    this.#db = db;
  }

  /** The restored history of each station in `stations` (rows of other stations stay untouched). */
  async loadAll(stations: readonly string[]): Promise<Map<string, RestoredStation>> {
    const restored = new Map<string, RestoredStation>(
      stations.map((id) => [id, { rows: { counters: [], latest: [], duplicates: null }, state: undefined }]),
    );
    const bySlot = new Map<number, string>();
    for (const row of await this.#db.all<StationRow>(
      'SELECT slot, station, latest, counters, high_water_ms, recent, mowable, above_since_ms FROM history_stations',
    )) {
      this.#slots.set(row.station, row.slot);
      bySlot.set(row.slot, row.station);
      const entry = restored.get(row.station);
      if (entry) restoreStation(entry, row);
    }
    const columns = await this.#loadBuckets(restored, bySlot);
    for (const [id, station] of restored) station.rows.buckets = columns.get(id) ?? new MinuteColumns();
    return restored;
  }

  /**
   * One scan in key order (minute, station), a page at a time, appending to
   * each station's columns (sized from a count first): no array of row
   * objects for the whole history ever exists.
   */
  async #loadBuckets(
    restored: ReadonlyMap<string, RestoredStation>,
    bySlot: ReadonlyMap<number, string>,
  ): Promise<Map<string, MinuteColumns>> {
    const columns = new Map<number, MinuteColumns>();
    for (const { slot, n } of await this.#db.all<{ slot: number; n: number }>(
      `SELECT bucket & ${MAX_SLOT} AS slot, COUNT(*) AS n FROM history_minutes GROUP BY 1`,
    )) {
      if (restored.has(bySlot.get(slot) ?? '')) columns.set(slot, new MinuteColumns(n + RESTORE_HEADROOM_MINUTES));
    }
    for (let after = -1; ;) {
      const rows = await this.#db.all<{ bucket: number; rain_mm: number; rain_observed: number; temp_min_c: number | null }>(
        `SELECT bucket, rain_mm, rain_observed, temp_min_c FROM history_minutes WHERE bucket > ? ORDER BY bucket LIMIT ${LOAD_PAGE}`,
        [after],
      );
      for (const row of rows) {
        columns
          .get(bucketSlot(row.bucket))
          ?.put({ minute: bucketMinute(row.bucket), rainMm: row.rain_mm, rainObserved: row.rain_observed === 1, tempMinC: row.temp_min_c });
      }
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.bucket;
    }
    return new Map([...columns].map(([slot, minutes]) => [bySlot.get(slot)!, minutes]));
  }

  /**
   * From now on this store's saves also commit what other writers on the
   * connection staged (sharedCommit.ts); `wake` asks for the next batch.
   * Returns the release. Each commit is fsynced (synchronous = FULL): with
   * commits minutes apart that costs little, and it bounds what a power cut
   * can take to the last flush interval (NORMAL would let every commit since
   * the last checkpoint, hours of them, roll back).
   */
  async drive(wake: () => void): Promise<() => void> {
    await this.#db.exec('PRAGMA synchronous = FULL');
    return this.#db.sharedCommit.drive(wake);
  }

  /**
   * Writes one batch and whatever other writers staged in a single
   * transaction; does nothing when both are empty. Returns whether it committed.
   */
  async save(batch: HistoryBatch): Promise<boolean> {
    const empty =
      batch.states.length === 0 &&
      batch.histories.every(
        ({ changes }) => changes.buckets.length + changes.counters.length + changes.latest.length === 0 && changes.duplicates === null,
      );
    // Slots numbered in this transaction count only once it commits (a rolled-back one would leave buckets without a station).
    const numbered = new Map<string, number>();
    const committed = await this.#db.sharedCommit.commit(empty ? undefined : (db) => this.#write(db, batch, numbered));
    for (const [station, slot] of numbered) this.#slots.set(station, slot);
    return committed;
  }

  /** The station's slot (its row in history_stations), numbering a new station. */
  async #slot(db: Database, station: string, numbered: Map<string, number>): Promise<number> {
    const known = this.#slots.get(station) ?? numbered.get(station);
    if (known !== undefined) return known;
    await db.run('INSERT INTO history_stations (station) VALUES (?) ON CONFLICT (station) DO NOTHING', [station]);
    const row = await db.get<{ slot: number }>('SELECT slot FROM history_stations WHERE station = ?', [station]);
    if (!row || row.slot > MAX_SLOT)
      throw new Error(
        `history_stations: no slot for station "${station}" (more than ${MAX_SLOT} station ids stored; remove old ones with SQL)`,
      );
    numbered.set(station, row.slot);
    return row.slot;
  }

  /** Station rows first (they number new stations), then every bucket in key order, so new minutes append at the B-tree's right edge. */
  async #write(db: Database, batch: HistoryBatch, numbered: Map<string, number>): Promise<void> {
    const buckets: Array<{ key: number; row: HistoryRows['buckets'][number] }> = [];
    for (const { station, changes } of batch.histories) {
      const slot = await this.#slot(db, station, numbered);
      for (const row of changes.buckets) buckets.push({ key: bucketKey(row.minute, slot), row });
      if (changes.latest.length + changes.counters.length > 0 || changes.duplicates !== null) {
        await db.run(
          // A damaged column (edited by hand) is started afresh rather than failing every commit.
          `UPDATE history_stations SET latest = json_patch(IIF(json_valid(latest), latest, '{}'), ?), counters = json_patch(IIF(json_valid(counters), counters, '{}'), ?),
             high_water_ms = COALESCE(?, high_water_ms), recent = COALESCE(?, recent) WHERE slot = ?`,
          [
            latestPatch(changes.latest),
            countersPatch(changes.counters),
            changes.duplicates?.highWaterMs ?? null,
            changes.duplicates ? JSON.stringify(changes.duplicates.recent) : null,
            slot,
          ],
        );
      }
    }
    for (const state of batch.states) {
      const slot = await this.#slot(db, state.station, numbered);
      await db.run('UPDATE history_stations SET mowable = ?, above_since_ms = ? WHERE slot = ?', [
        state.mowable ? 1 : 0,
        state.aboveSinceMs,
        slot,
      ]);
    }
    buckets.sort((a, b) => a.key - b.key);
    await insertChunked(
      db,
      'INSERT INTO history_minutes (bucket, rain_mm, rain_observed, temp_min_c)',
      '(?, ?, ?, ?)',
      buckets,
      ({ key, row }) => [key, row.rainMm, row.rainObserved ? 1 : 0, row.tempMinC],
      'ON CONFLICT (bucket) DO UPDATE SET rain_mm = excluded.rain_mm, rain_observed = excluded.rain_observed, temp_min_c = excluded.temp_min_c',
    );
  }

  /**
   * Deletes buckets, counter baselines and high-water marks older than the
   * 14-day retention (readings that old are refused anyway); returns deleted
   * bucket rows.
   */
  async prune(nowMs: number): Promise<number> {
    const oldestKey = bucketKey(Math.floor(nowMs / MINUTE_MS) - RETENTION_MINUTES, 0);
    const oldestMs = nowMs - RETENTION_MINUTES * MINUTE_MS;
    return this.#db.transaction(async (db) => {
      const buckets = await db.run('DELETE FROM history_minutes WHERE bucket < ?', [oldestKey]);
      await db.run(
        `UPDATE history_stations SET counters = (SELECT json_group_object(key, value) FROM json_each(counters) WHERE value ->> '$[1]' >= ?1)
         WHERE EXISTS (SELECT 1 FROM json_each(counters) WHERE value ->> '$[1]' < ?1)`,
        [oldestMs],
      );
      await db.run("UPDATE history_stations SET high_water_ms = NULL, recent = '[]' WHERE high_water_ms < ?", [oldestMs]);
      return buckets.changes;
    });
  }
}
