/**
 * `mowability status` asks the running daemon first: its status endpoint (GET /v1/stations, the
 * status page's) on this machine answers with what it computes now, while the database is written
 * only every history.flushIntervalSeconds. When the daemon does not answer, the report comes from
 * the database with a note saying how old that is.
 */
import { statSync } from 'node:fs';
import type { AppConfig } from '../config/schema.js';
import type { StationSummary } from '../http/stationsView.js';

/** A station as the running daemon sees it: the summary of GET /v1/stations (src/http/stationsView.ts). */
export type LiveStation = Pick<StationSummary, 'id' | 'name' | 'index' | 'status' | 'mowable' | 'mowable_reason' | 'last_reading_at' | 'availability'>;

export type LiveAnswer = { ok: true; url: string; stations: LiveStation[] } | { ok: false; url: string; reason: string };

/** How long to wait for the daemon before reading the database instead. */
export const LIVE_TIMEOUT_MS = 2000;

/** The daemon's address as seen from this machine: a wildcard listen address is reached on loopback. */
export function daemonUrl(config: Pick<AppConfig, 'http'>): string {
  const host = config.http.host;
  const local = host === '' || host === '0.0.0.0' || host === 'localhost' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${config.http.port}`;
}

export async function askDaemon(config: Pick<AppConfig, 'http'>, fetchImpl: typeof fetch = fetch): Promise<LiveAnswer> {
  const url = daemonUrl(config);
  if (config.http.statusPage === 'off') return { ok: false, url, reason: 'its status endpoints are off (http.statusPage)' };
  try {
    const response = await fetchImpl(`${url}/v1/stations`, { signal: AbortSignal.timeout(LIVE_TIMEOUT_MS) });
    if (response.status === 401) return { ok: false, url, reason: 'its status endpoints need a key (http.statusPage = key)' };
    if (!response.ok) return { ok: false, url, reason: `it answered HTTP ${response.status}` };
    const body = (await response.json()) as { stations?: unknown };
    if (!Array.isArray(body.stations)) return { ok: false, url, reason: 'its answer was not a station list' };
    return { ok: true, url, stations: body.stations as LiveStation[] };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { ok: false, url, reason: cause === 'ECONNREFUSED' ? 'nothing listens there (is the daemon running?)' : `no answer (${cause ?? (err as Error).name})` };
  }
}

/** When the database (or its WAL) was last written, from the files' modification times. */
export function databaseWrittenAt(path: string): string | null {
  let latest = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      latest = Math.max(latest, statSync(file).mtimeMs);
    } catch {
      // no such file
    }
  }
  return latest > 0 ? new Date(latest).toISOString() : null;
}
