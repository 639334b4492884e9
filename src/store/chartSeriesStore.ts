/**
 * The status page's chart series in SQLite (`chart_series`, migration 11), so the index, humidity
 * and dew-point charts survive a restart. The minute buckets keep only rain and the lowest
 * temperature, from which these series cannot be derived, hence a table of its own; to stay in the
 * SD-card budget it holds one row per station and completed 10-minute slot (the page's finest
 * step), and rows are only staged here: they are written in the history's next commit
 * (./sharedCommit.ts), never in a commit of their own. With the slot key first, a commit adds its
 * rows to the right edge of one B-tree (one page for every station). Rows older than the 14-day
 * retention are deleted in the first commit of each day.
 */
import type { Database } from './database.js';
import type { StagedRows } from './sharedCommit.js';

/** Minutes per stored slot. */
export const CHART_SLOT_MINUTES = 10;
const SLOTS_PER_DAY = 1440 / CHART_SLOT_MINUTES;
/** 14 days of slots, as long as the history keeps its minutes. */
export const CHART_RETENTION_SLOTS = 14 * SLOTS_PER_DAY;

/** One station's values in one slot; null where nothing was recorded. */
export interface ChartSlotRow {
  station: string;
  /** Minute of the epoch / CHART_SLOT_MINUTES. */
  slot: number;
  temperature: number | null;
  humidity: number | null;
  dewPoint: number | null;
  index: number | null;
}

interface RawRow {
  station: string;
  slot: number;
  temperature: number | null;
  humidity: number | null;
  dew_point: number | null;
  index_score: number | null;
}

export class ChartSeriesStore {
  readonly #db: Database;
  /** The latest row per station and slot not yet committed. */
  #staged = new Map<string, ChartSlotRow>();
  /** The day (of slots) whose old rows were last deleted. */
  #prunedDay = -1;

  constructor(db: Database) {
    this.#db = db;
    db.sharedCommit.join({ take: () => this.#take() });
  }

  /** The rows of `stations` from `fromSlot` on, oldest first. */
  async load(stations: readonly string[], fromSlot: number): Promise<ChartSlotRow[]> {
    if (stations.length === 0) return [];
    const rows = await this.#db.all<RawRow>(
      `SELECT station, slot, temperature, humidity, dew_point, index_score FROM chart_series WHERE slot >= ? AND station IN (${stations.map(() => '?').join(', ')}) ORDER BY slot`,
      [fromSlot, ...stations],
    );
    return rows.map((row) => ({
      station: row.station,
      slot: row.slot,
      temperature: row.temperature,
      humidity: row.humidity,
      dewPoint: row.dew_point,
      index: row.index_score,
    }));
  }

  /**
   * Stages a slot's row for the history's next commit (a later row for the same slot replaces it).
   * Without a running history nothing commits it: the rows wait (the series are a convenience, not
   * worth a write of their own).
   */
  stage(row: ChartSlotRow): void {
    this.#staged.set(`${row.slot}\u0000${row.station}`, row);
    this.#db.sharedCommit.staged();
  }

  #take(): StagedRows<Database> | undefined {
    if (this.#staged.size === 0) return undefined;
    const taken = this.#staged;
    this.#staged = new Map();
    const newest = Math.max(...[...taken.values()].map((row) => row.slot));
    const day = Math.floor(newest / SLOTS_PER_DAY);
    const prune = day !== this.#prunedDay;
    return {
      write: async (db) => {
        for (const row of taken.values()) {
          await db.run(
            `INSERT INTO chart_series (slot, station, temperature, humidity, dew_point, index_score) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (slot, station) DO UPDATE SET temperature = excluded.temperature, humidity = excluded.humidity,
               dew_point = excluded.dew_point, index_score = excluded.index_score`,
            [row.slot, row.station, row.temperature, row.humidity, row.dewPoint, row.index],
          );
        }
        if (prune) {
          await db.run('DELETE FROM chart_series WHERE slot <= ?', [newest - CHART_RETENTION_SLOTS]);
          this.#prunedDay = day;
        }
      },
      restore: () => {
        if (prune) this.#prunedDay = -1;
        for (const [key, row] of taken) if (!this.#staged.has(key)) this.#staged.set(key, row);
      },
    };
  }
}
