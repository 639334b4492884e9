/**
 * SQLite adapter for station histories: loads every station's rows on start
 * in one ordered scan and writes changed rows in one transaction per batch
 * (shared with the retained messages, see sharedCommit.ts). The history
 * logic itself is in src/history (pure); this file only maps rows.
 */
import type { CurrentField } from '../ingest/types.js';
import { MinuteColumns } from '../history/minuteColumns.js';
import type { RestoredRows } from '../history/stationHistory.js';
import type { CounterRow, HistoryRows, LatestRow } from '../history/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../history/windows.js';
import type { Database } from './database.js';
import { SharedCommit } from './sharedCommit.js';

export interface StationStateRow {
  station: string;
  mowable: boolean;
  aboveSinceMs: number | null;
}

export interface HistoryBatch {
  histories: ReadonlyArray<{ station: string; changes: HistoryRows }>;
  states: readonly StationStateRow[];
}

/** Rows per INSERT statement; 5 parameters each stays far below SQLite's variable limit. */
const CHUNK = 200;
/** Bucket rows per page of the start-up scan: bounds the row objects alive at once (the peak RSS at start). */
const LOAD_PAGE = 4096;

export interface RestoredStation {
  rows: RestoredRows;
  state: StationStateRow | undefined;
}

async function insertChunked<T>(db: Database, head: string, placeholders: string, rows: readonly T[], params: (row: T) => unknown[], tail: string): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    await db.run(`${head} VALUES ${chunk.map(() => placeholders).join(', ')} ${tail}`, chunk.flatMap(params));
  }
}

/** The filter's recent entries; a damaged value only costs the radio-repeat memory of one restart. */
function parseRecent(text: string): Array<[number, number]> {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((pair): pair is [number, number] => Array.isArray(pair) && pair.length === 2 && pair.every(Number.isFinite));
  } catch {
    return [];
  }
}

export class HistoryStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The restored history of each station in `stations` (rows of other stations stay untouched). */
  async loadAll(stations: readonly string[]): Promise<Map<string, RestoredStation>> {
    const restored = new Map<string, RestoredStation>(stations.map((id) => [id, { rows: { counters: [], latest: [], duplicates: null }, state: undefined }]));
    const columns = await this.#loadBuckets(restored);
    for (const [id, station] of restored) station.rows.buckets = columns.get(id) ?? new MinuteColumns();
    const place = <T>(station: string, add: (entry: RestoredStation) => T): void => {
      const entry = restored.get(station);
      if (entry) add(entry);
    };
    for (const row of await this.#db.all<{ station: string; counter: string; total_mm: number; at_ms: number }>('SELECT station, counter, total_mm, at_ms FROM history_counters')) {
      place(row.station, (entry) => entry.rows.counters!.push({ key: row.counter, totalMm: row.total_mm, atMs: row.at_ms } satisfies CounterRow));
    }
    for (const row of await this.#db.all<{ station: string; field: string; value: number; at_ms: number }>('SELECT station, field, value, at_ms FROM history_latest')) {
      place(row.station, (entry) => entry.rows.latest!.push({ field: row.field as CurrentField, value: row.value, atMs: row.at_ms } satisfies LatestRow));
    }
    for (const row of await this.#db.all<{ station: string; at_ms: number; recent: string }>('SELECT station, at_ms, recent FROM history_high_water')) {
      place(row.station, (entry) => (entry.rows.duplicates = { highWaterMs: row.at_ms, recent: parseRecent(row.recent) }));
    }
    for (const row of await this.#db.all<{ station: string; mowable: number; above_since_ms: number | null }>('SELECT station, mowable, above_since_ms FROM history_station_state')) {
      place(row.station, (entry) => (entry.state = { station: row.station, mowable: row.mowable === 1, aboveSinceMs: row.above_since_ms }));
    }
    return restored;
  }

  /**
   * One scan in key order (minute, station), a page at a time, appending to
   * each station's columns (sized from a count first): no array of row
   * objects for the whole history ever exists.
   */
  async #loadBuckets(restored: ReadonlyMap<string, RestoredStation>): Promise<Map<string, MinuteColumns>> {
    const columns = new Map<string, MinuteColumns>();
    for (const { station, n } of await this.#db.all<{ station: string; n: number }>('SELECT station, COUNT(*) AS n FROM history_buckets GROUP BY station')) {
      if (restored.has(station)) columns.set(station, new MinuteColumns(n + 64));
    }
    let after: [number, string] | undefined;
    for (;;) {
      const rows = await this.#db.all<{ minute: number; station: string; rain_mm: number; rain_observed: number; temp_min_c: number | null }>(
        `SELECT minute, station, rain_mm, rain_observed, temp_min_c FROM history_buckets ${after ? 'WHERE (minute, station) > (?, ?)' : ''} ORDER BY minute, station LIMIT ${LOAD_PAGE}`,
        after ?? [],
      );
      for (const row of rows) {
        columns.get(row.station)?.put({ minute: row.minute, rainMm: row.rain_mm, rainObserved: row.rain_observed === 1, tempMinC: row.temp_min_c });
      }
      if (rows.length < LOAD_PAGE) return columns;
      const last = rows[rows.length - 1]!;
      after = [last.minute, last.station];
    }
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
    return SharedCommit.of(this.#db).drive(wake);
  }

  /**
   * Writes one batch and whatever other writers staged in a single
   * transaction; does nothing when both are empty. Returns whether it committed.
   */
  async save(batch: HistoryBatch): Promise<boolean> {
    const empty =
      batch.states.length === 0 &&
      batch.histories.every(({ changes }) => changes.buckets.length + changes.counters.length + changes.latest.length === 0 && changes.duplicates === null);
    return SharedCommit.of(this.#db).commit(empty ? undefined : (db) => this.#write(db, batch));
  }

  async #write(db: Database, batch: HistoryBatch): Promise<void> {
    for (const { station, changes } of batch.histories) {
      await insertChunked(db, 'INSERT INTO history_buckets (minute, station, rain_mm, rain_observed, temp_min_c)', '(?, ?, ?, ?, ?)', changes.buckets,
        (b) => [b.minute, station, b.rainMm, b.rainObserved ? 1 : 0, b.tempMinC],
        'ON CONFLICT (minute, station) DO UPDATE SET rain_mm = excluded.rain_mm, rain_observed = excluded.rain_observed, temp_min_c = excluded.temp_min_c');
      await insertChunked(db, 'INSERT INTO history_counters (station, counter, total_mm, at_ms)', '(?, ?, ?, ?)', changes.counters,
        (c) => [station, c.key, c.totalMm, c.atMs],
        'ON CONFLICT (station, counter) DO UPDATE SET total_mm = excluded.total_mm, at_ms = excluded.at_ms');
      await insertChunked(db, 'INSERT INTO history_latest (station, field, value, at_ms)', '(?, ?, ?, ?)', changes.latest,
        (l) => [station, l.field, l.value, l.atMs],
        'ON CONFLICT (station, field) DO UPDATE SET value = excluded.value, at_ms = excluded.at_ms');
      if (changes.duplicates !== null) {
        await db.run(
          'INSERT INTO history_high_water (station, at_ms, recent) VALUES (?, ?, ?) ON CONFLICT (station) DO UPDATE SET at_ms = excluded.at_ms, recent = excluded.recent',
          [station, changes.duplicates.highWaterMs, JSON.stringify(changes.duplicates.recent)],
        );
      }
    }
    await insertChunked(db, 'INSERT INTO history_station_state (station, mowable, above_since_ms)', '(?, ?, ?)', batch.states,
      (s) => [s.station, s.mowable ? 1 : 0, s.aboveSinceMs],
      'ON CONFLICT (station) DO UPDATE SET mowable = excluded.mowable, above_since_ms = excluded.above_since_ms');
  }

  /**
   * Deletes buckets, counter baselines and high-water marks older than the
   * 14-day retention (readings that old are refused anyway); returns deleted
   * bucket rows.
   */
  async prune(nowMs: number): Promise<number> {
    const oldestMinute = Math.floor(nowMs / MINUTE_MS) - RETENTION_MINUTES;
    const oldestMs = nowMs - RETENTION_MINUTES * MINUTE_MS;
    return this.#db.transaction(async (db) => {
      const buckets = await db.run('DELETE FROM history_buckets WHERE minute < ?', [oldestMinute]);
      await db.run('DELETE FROM history_counters WHERE at_ms < ?', [oldestMs]);
      await db.run('DELETE FROM history_high_water WHERE at_ms < ?', [oldestMs]);
      return buckets.changes;
    });
  }
}
