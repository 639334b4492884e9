/**
 * A key's stored requests per day (the `key_usage` table of the service tables, ./serviceTables.ts),
 * read by `mowability keys usage`. The public service's per-key counting writes them; a home install
 * has the table and no counts.
 */
import type { SqlDatabase } from './sqlDatabase.js';

export interface UsageDay {
  day: string;
  requests: number;
}

/** Newest first (up to keys.usageFlushSeconds behind, or history.flushIntervalSeconds with a station history). */
export async function keyUsageDays(db: SqlDatabase, keyId: number, sinceDay: string): Promise<UsageDay[]> {
  return db.all<UsageDay>('SELECT day, requests FROM key_usage WHERE key_id = ? AND day >= ? ORDER BY day DESC', [keyId, sinceDay]);
}
