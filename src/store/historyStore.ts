/**
 * SQLite adapter for station histories: loads every row on start and writes
 * changed rows in one transaction per batch. The history logic itself is in
 * src/history (pure); this file only maps rows.
 */
import type { CurrentField } from '../ingest/types.js';
import type { BucketRow, CounterRow, HistoryRows, LatestRow } from '../history/stationHistory.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../history/windows.js';
import type { Database } from './database.js';

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

  async load(station: string): Promise<{ rows: HistoryRows; state: StationStateRow | undefined }> {
    const buckets = await this.#db.all<{ minute: number; rain_mm: number; rain_observed: number; temp_min_c: number | null }>(
      'SELECT minute, rain_mm, rain_observed, temp_min_c FROM history_buckets WHERE station = ? ORDER BY minute',
      [station],
    );
    const counters = await this.#db.all<{ counter: string; total_mm: number; at_ms: number }>(
      'SELECT counter, total_mm, at_ms FROM history_counters WHERE station = ?',
      [station],
    );
    const latest = await this.#db.all<{ field: string; value: number; at_ms: number }>(
      'SELECT field, value, at_ms FROM history_latest WHERE station = ?',
      [station],
    );
    const highWater = await this.#db.get<{ at_ms: number; recent: string }>('SELECT at_ms, recent FROM history_high_water WHERE station = ?', [station]);
    const state = await this.#db.get<{ mowable: number; above_since_ms: number | null }>(
      'SELECT mowable, above_since_ms FROM history_station_state WHERE station = ?',
      [station],
    );
    return {
      rows: {
        buckets: buckets.map((row): BucketRow => ({
          minute: row.minute,
          rainMm: row.rain_mm,
          rainObserved: row.rain_observed === 1,
          tempMinC: row.temp_min_c,
        })),
        counters: counters.map((row): CounterRow => ({ key: row.counter, totalMm: row.total_mm, atMs: row.at_ms })),
        latest: latest.map((row): LatestRow => ({ field: row.field as CurrentField, value: row.value, atMs: row.at_ms })),
        duplicates: highWater ? { highWaterMs: highWater.at_ms, recent: parseRecent(highWater.recent) } : null,
      },
      state: state ? { station, mowable: state.mowable === 1, aboveSinceMs: state.above_since_ms } : undefined,
    };
  }

  /** Writes one batch in a single transaction; does nothing for an empty batch. */
  async save(batch: HistoryBatch): Promise<void> {
    const empty =
      batch.states.length === 0 &&
      batch.histories.every(({ changes }) => changes.buckets.length + changes.counters.length + changes.latest.length === 0 && changes.duplicates === null);
    if (empty) return;
    await this.#db.transaction(async (db) => {
      for (const { station, changes } of batch.histories) {
        await insertChunked(db, 'INSERT INTO history_buckets (station, minute, rain_mm, rain_observed, temp_min_c)', '(?, ?, ?, ?, ?)', changes.buckets,
          (b) => [station, b.minute, b.rainMm, b.rainObserved ? 1 : 0, b.tempMinC],
          'ON CONFLICT (station, minute) DO UPDATE SET rain_mm = excluded.rain_mm, rain_observed = excluded.rain_observed, temp_min_c = excluded.temp_min_c');
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
    });
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
