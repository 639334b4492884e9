/**
 * What `mowability status` shows: the configured stations and what the
 * daemon's database holds for them (last reading, latest values, the
 * persisted mowable flag, how much history). Reading is read-only SQL; the
 * text rendering is pure.
 */
import type { StationConfig } from '../ingest/types.js';
import type { Database } from '../store/database.js';
import { readRefusals, renderStationRefusals, renderUnmatched, type RefusedUploads } from './statusRefusals.js';

const MINUTE_MS = 60_000;

export interface StationStatus {
  id: string;
  name: string;
  format: string;
  last_reading_at: string | null;
  /** The mowable flag as the daemon last stored it; null before its first decision. */
  mowable: boolean | null;
  /** Latest value of each field (spec units) and when it was read. */
  latest: Record<string, { value: number; at: string }>;
  /** Minutes of history kept (rain and temperature buckets), and the oldest. */
  history_minutes: number;
  history_since: string | null;
  /** Refused uploads by outcome, with the last one's reason (empty: none refused). */
  uploads_refused: RefusedUploads[];
}

export interface StatusReport {
  database: string;
  /** False when the daemon never ran with this database (no file). */
  database_exists: boolean;
  stations: StationStatus[];
  /** Stations with history but no longer configured. */
  unconfigured_with_history: string[];
  /** Uploads that matched no configured station, by outcome and the last console's source. */
  unmatched_uploads: RefusedUploads[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

export async function readStatus(database: Database, path: string, stations: readonly StationConfig[]): Promise<StatusReport> {
  const latestRows = await database.all<{ station: string; field: string; value: number; at_ms: number }>('SELECT station, field, value, at_ms FROM history_latest ORDER BY station, field');
  const stateRows = await database.all<{ station: string; mowable: number }>('SELECT station, mowable FROM history_station_state');
  const bucketRows = await database.all<{ station: string; minutes: number; first: number }>('SELECT station, COUNT(*) AS minutes, MIN(minute) AS first FROM history_buckets GROUP BY station');
  const mowable = new Map(stateRows.map((row) => [row.station, row.mowable === 1]));
  const buckets = new Map(bucketRows.map((row) => [row.station, row]));
  const known = new Set(stations.map((station) => station.id));
  const withHistory = new Set([...latestRows.map((row) => row.station), ...buckets.keys()]);
  const refusals = await readRefusals(database);
  return {
    database: path,
    database_exists: true,
    stations: stations.map((station) => {
      const rows = latestRows.filter((row) => row.station === station.id);
      const lastMs = rows.reduce<number | null>((last, row) => (last === null || row.at_ms > last ? row.at_ms : last), null);
      const bucket = buckets.get(station.id);
      return {
        id: station.id,
        name: station.name,
        format: station.format,
        last_reading_at: lastMs === null ? null : iso(lastMs),
        mowable: mowable.get(station.id) ?? null,
        latest: Object.fromEntries(rows.map((row) => [row.field, { value: row.value, at: iso(row.at_ms) }])),
        history_minutes: bucket?.minutes ?? 0,
        history_since: bucket ? iso(bucket.first * MINUTE_MS) : null,
        uploads_refused: refusals.byStation.get(station.id) ?? [],
      };
    }),
    unconfigured_with_history: [...withHistory].filter((id) => !known.has(id)).sort(),
    unmatched_uploads: refusals.unmatched,
  };
}

/** "5 min ago", "3 h ago", "2 d ago". */
export function ago(isoTime: string, nowMs: number): string {
  const minutes = Math.max(0, Math.round((nowMs - Date.parse(isoTime)) / MINUTE_MS));
  if (minutes < 90) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} d ago`;
}

export function renderStatus(report: StatusReport, nowMs: number): string {
  if (!report.database_exists) {
    return `The daemon has not run with this database yet: ${report.database} does not exist.\nStart it with "mowability serve" (or the systemd service); check db.path / MOWABILITY_DB_PATH if it already runs.\n`;
  }
  const lines = [`Database: ${report.database}`];
  if (report.stations.length === 0) lines.push('No stations configured (add a "stations" list to the config file, see docs/mqtt.md).');
  for (const station of report.stations) {
    lines.push('', `${station.id} (${station.name}, ${station.format})`);
    lines.push(`  last reading: ${station.last_reading_at === null ? 'none yet' : `${station.last_reading_at} (${ago(station.last_reading_at, nowMs)})`}`);
    lines.push(`  mowable:      ${station.mowable === null ? 'not decided yet' : station.mowable ? 'yes' : 'no'}`);
    const values = Object.entries(station.latest).map(([field, { value }]) => `${field} ${Math.round(value * 100) / 100}`);
    if (values.length > 0) lines.push(`  latest:       ${values.join(', ')}`);
    lines.push(`  history:      ${station.history_minutes} minutes${station.history_since ? ` since ${station.history_since}` : ''}`);
    lines.push(...renderStationRefusals(station.uploads_refused ?? [], (at) => ago(at, nowMs)));
  }
  lines.push(...renderUnmatched(report.unmatched_uploads ?? [], (at) => ago(at, nowMs)));
  if (report.unconfigured_with_history.length > 0) lines.push('', `History of stations no longer configured: ${report.unconfigured_with_history.join(', ')}`);
  lines.push('', 'The index itself is computed live: see the station\'s MQTT state topic or Home Assistant.');
  return `${lines.join('\n')}\n`;
}
