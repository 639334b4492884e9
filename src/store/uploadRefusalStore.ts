/**
 * The `upload_refusals` table (migration 10): per station and outcome, how
 * many uploads were refused and the last one's time, protocol, reason and
 * source. The daemon upserts what changed; `mowability status` reads it all.
 */
import type { Database } from './database.js';

export interface UploadRefusalRow {
  /** A configured station's id, or UNMATCHED_STATION. */
  station: string;
  outcome: string;
  count: number;
  lastAtMs: number;
  protocol: string;
  reason: string;
  source: string | null;
}

interface RawRow {
  station: string;
  outcome: string;
  count: number;
  last_at_ms: number;
  protocol: string;
  reason: string;
  source: string | null;
}

export async function saveUploadRefusals(database: Database, rows: readonly UploadRefusalRow[]): Promise<void> {
  if (rows.length === 0) return;
  await database.transaction(async (db) => {
    for (const row of rows) {
      await db.run(
        `INSERT INTO upload_refusals (station, outcome, count, last_at_ms, protocol, reason, source) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (station, outcome) DO UPDATE SET count = excluded.count, last_at_ms = excluded.last_at_ms,
           protocol = excluded.protocol, reason = excluded.reason, source = excluded.source`,
        [row.station, row.outcome, row.count, row.lastAtMs, row.protocol, row.reason, row.source],
      );
    }
  });
}

/** Every row, newest first. */
export async function loadUploadRefusals(database: Database): Promise<UploadRefusalRow[]> {
  const rows = await database.all<RawRow>(
    'SELECT station, outcome, count, last_at_ms, protocol, reason, source FROM upload_refusals ORDER BY last_at_ms DESC',
  );
  return rows.map((row) => ({
    station: row.station,
    outcome: row.outcome,
    count: row.count,
    lastAtMs: row.last_at_ms,
    protocol: row.protocol,
    reason: row.reason,
    source: row.source,
  }));
}
