/**
 * The lawn memory's rows (migration 007): balances as JSON per station, written in one transaction
 * per save, and the last cut per station (the daemon's MQTT topic and `mowability mowed` both write
 * it). Reading a cut is cheap, so the daemon polls it, when the database's change counter moved.
 */
import type { Database } from './database.js';

export interface StoredCut {
  station: string;
  atMs: number;
  source: string;
}

export class LawnMemoryStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async loadBalances(): Promise<Map<string, unknown>> {
    const rows = await this.#database.all<{ station: string; state: string }>('SELECT station, state FROM lawn_balances');
    const balances = new Map<string, unknown>();
    for (const row of rows) {
      try {
        balances.set(row.station, JSON.parse(row.state));
      } catch {
        // A damaged row is a lost balance, not a failed start: the station starts afresh.
      }
    }
    return balances;
  }

  async saveBalances(rows: ReadonlyArray<{ station: string; state: unknown }>, nowMs: number): Promise<void> {
    if (rows.length === 0) return;
    await this.#database.transaction(async (db) => {
      for (const row of rows) {
        await db.run(
          'INSERT INTO lawn_balances (station, state, saved_at_ms) VALUES (?, ?, ?) ON CONFLICT(station) DO UPDATE SET state = excluded.state, saved_at_ms = excluded.saved_at_ms',
          [row.station, JSON.stringify(row.state), nowMs],
        );
      }
    });
  }

  async loadCuts(): Promise<Map<string, StoredCut>> {
    const rows = await this.#database.all<{ station: string; at_ms: number; source: string }>(
      'SELECT station, at_ms, source FROM lawn_cuts',
    );
    return new Map(rows.map((row) => [row.station, { station: row.station, atMs: row.at_ms, source: row.source }]));
  }

  async saveCut(cut: StoredCut, nowMs: number): Promise<void> {
    await this.#database.run(
      'INSERT INTO lawn_cuts (station, at_ms, source, recorded_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT(station) DO UPDATE SET at_ms = excluded.at_ms, source = excluded.source, recorded_at_ms = excluded.recorded_at_ms',
      [cut.station, cut.atMs, cut.source, nowMs],
    );
  }

  /** Changes when another process (the CLI's `mowability mowed`) wrote to the database. */
  async changeCounter(): Promise<number> {
    return this.#database.dataVersion();
  }
}
