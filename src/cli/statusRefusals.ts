/**
 * The refused uploads part of `mowability status` (the daemon keeps them in
 * `upload_refusals`, src/station/uploadRefusals.ts): per station, and for
 * consoles that matched no station, how many uploads were refused for which
 * reason and when the last one was. Reading is read-only SQL; rendering is pure.
 */
import type { Database } from '../store/database.js';
import { loadUploadRefusals } from '../store/uploadRefusalStore.js';
import { UNMATCHED } from '../station/uploadRefusals.js';

export interface RefusedUploads {
  outcome: string;
  count: number;
  last_at: string;
  protocol: string;
  reason: string;
  /** Unmatched uploads only: what names the console (its WU ID or its PASSKEY's SHA-256). */
  source?: string;
}

export interface RefusalReport {
  byStation: Map<string, RefusedUploads[]>;
  unmatched: RefusedUploads[];
}

export async function readRefusals(database: Database): Promise<RefusalReport> {
  const byStation = new Map<string, RefusedUploads[]>();
  const unmatched: RefusedUploads[] = [];
  for (const row of await loadUploadRefusals(database)) {
    const entry: RefusedUploads = { outcome: row.outcome, count: row.count, last_at: new Date(row.lastAtMs).toISOString(), protocol: row.protocol, reason: row.reason };
    if (row.station === UNMATCHED) unmatched.push({ ...entry, ...(row.source ? { source: row.source } : {}) });
    else byStation.set(row.station, [...(byStation.get(row.station) ?? []), entry]);
  }
  return { byStation, unmatched };
}

/** Lines for one station's refused uploads (none: nothing refused). */
export function renderStationRefusals(refused: readonly RefusedUploads[], ago: (iso: string) => string): string[] {
  if (refused.length === 0) return [];
  return [
    '  uploads refused:',
    ...refused.map((entry) => `    ${entry.count} × ${entry.outcome} (${entry.protocol}), last ${ago(entry.last_at)}: ${entry.reason}`),
  ];
}

export function renderUnmatched(unmatched: readonly RefusedUploads[], ago: (iso: string) => string): string[] {
  if (unmatched.length === 0) return [];
  return [
    '',
    'Uploads that matched no station (check the station\'s "upload" block; "mowability upload-secret" prints it):',
    ...unmatched.map((entry) => `  ${entry.count} × ${entry.outcome} (${entry.protocol}${entry.source ? `, ${entry.source}` : ''}), last ${ago(entry.last_at)}: ${entry.reason}`),
  ];
}
