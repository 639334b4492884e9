/**
 * The values Home Assistant set for a station's controls (table `station_controls`): one row per
 * station and control, its value as JSON, so it survives a restart; a reset deletes the row
 * (src/station/stationControls.ts reads and checks them).
 */
import type { Database } from './database.js';

export interface StoredControl {
  readonly station: string;
  readonly control: string;
  /** The value as JSON text. */
  readonly value: string;
  readonly setAtMs: number;
}

export class StationControlStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Every stored value, oldest first. */
  async loadAll(): Promise<StoredControl[]> {
    const rows = await this.#database.all<{ station: string; control: string; value: string; set_at_ms: number }>(
      'SELECT station, control, value, set_at_ms FROM station_controls ORDER BY set_at_ms',
    );
    return rows.map((row) => ({ station: row.station, control: row.control, value: row.value, setAtMs: row.set_at_ms }));
  }

  async save(station: string, control: string, value: unknown, atMs: number): Promise<void> {
    await this.#database.run(
      'INSERT INTO station_controls (station, control, value, set_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT(station, control) DO UPDATE SET value = excluded.value, set_at_ms = excluded.set_at_ms',
      [station, control, JSON.stringify(value), atMs],
    );
  }

  async remove(station: string, control: string): Promise<void> {
    await this.#database.run('DELETE FROM station_controls WHERE station = ? AND control = ?', [station, control]);
  }
}
