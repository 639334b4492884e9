/**
 * What `mowability status` shows: the configured stations and what the
 * daemon's database holds for them (last reading, latest values, the
 * persisted mowable flag, how much history). Reading is read-only SQL; the
 * text rendering is pure.
 */
import { statSync } from 'node:fs';
import { MODELLED_FORMAT } from '../ingest/types.js';
import type { Database } from '../store/database.js';
import { loadUploadRefusals } from '../store/uploadRefusalStore.js';
import { UNMATCHED } from '../station/uploadRefusals.js';
import type { AppConfig } from '../config/schema.js';
import type { StationSummary } from '../http/stationsView.js';
import { localIsoText } from '../util/localTimeText.js';

/*
 * `mowability status` asks the running daemon first: its status endpoint (GET /v1/stations, the
 * status page's) on this machine answers with what it computes now, while the database is written
 * only every history.flushIntervalSeconds. When the daemon does not answer, the report comes from
 * the database with a note saying how old that is.
 */
/** A station as the running daemon sees it: the summary of GET /v1/stations (src/http/stationsView.ts). */
export type LiveStation = Pick<
  StationSummary,
  'id' | 'name' | 'index' | 'status' | 'mowable' | 'mowable_reason' | 'last_reading_at' | 'availability'
> &
  Partial<Pick<StationSummary, 'topics_heard' | 'forecast_problem' | 'plan_notify'>>;

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
    return {
      ok: false,
      url,
      reason: cause === 'ECONNREFUSED' ? 'nothing listens there (is the daemon running?)' : `no answer (${cause ?? (err as Error).name})`,
    };
  }
}

/**
 * checks.mqtt of the running daemon's GET /health, or undefined (no answer, MQTT off). /health
 * names the account by its setting only (it answers without login); this machine's user sees its name.
 */
export async function askMqttHealth(
  config: Pick<AppConfig, 'http' | 'mqtt'>,
  fetchImpl: typeof fetch = fetch,
): Promise<{ status: string; message: string } | undefined> {
  try {
    const response = await fetchImpl(`${daemonUrl(config)}/health`, { signal: AbortSignal.timeout(LIVE_TIMEOUT_MS) });
    const body = (await response.json()) as { mfi?: { checks?: { mqtt?: { status?: unknown; message?: unknown } } } };
    const mqtt = body.mfi?.checks?.mqtt;
    if (typeof mqtt?.status !== 'string' || typeof mqtt.message !== 'string') return undefined;
    const account =
      config.mqtt.username === '' ? "this daemon's account (mqtt.username)" : `account "${config.mqtt.username}" (mqtt.username)`;
    return { status: mqtt.status, message: mqtt.message.replaceAll("this daemon's account (mqtt.username)", account) };
  } catch {
    return undefined;
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

/*
 * The refused uploads part of `mowability status` (the daemon keeps them in
 * `upload_refusals`, src/station/uploadRefusals.ts): per station, and for
 * consoles that matched no station, how many uploads were refused for which
 * reason and when the last one was. Reading is read-only SQL; rendering is pure.
 */
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
    const entry: RefusedUploads = {
      outcome: row.outcome,
      count: row.count,
      last_at: new Date(row.lastAtMs).toISOString(),
      protocol: row.protocol,
      reason: row.reason,
    };
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
    ...unmatched.map(
      (entry) =>
        `  ${entry.count} × ${entry.outcome} (${entry.protocol}${entry.source ? `, ${entry.source}` : ''}), last ${ago(entry.last_at)}: ${entry.reason}`,
    ),
  ];
}

const MINUTE_MS = 60_000;

export interface StationStatus {
  id: string;
  name: string;
  format: string;
  last_reading_at: string | null;
  /** The mowable flag as the daemon last stored it; null before its first decision. */
  mowable: boolean | null;
  /** Latest value of each field (the API's units) and when it was read. */
  latest: Record<string, { value: number; at: string }>;
  /** Minutes of history kept (rain and temperature buckets), and the oldest. */
  history_minutes: number;
  history_since: string | null;
  /** What the running daemon computes now, when it answered. */
  live?: Pick<
    LiveStation,
    | 'index'
    | 'status'
    | 'mowable'
    | 'mowable_reason'
    | 'last_reading_at'
    | 'availability'
    | 'topics_heard'
    | 'forecast_problem'
    | 'plan_notify'
  >;
  /** Refused uploads by outcome, with the last one's reason (empty: none refused). */
  uploads_refused: RefusedUploads[];
  /** Where the station's night ban takes its sun from (src/lawn/zoneLocation.ts); absent with the lawn memory off. */
  night_ban?: string;
}

export interface StatusReport {
  database: string;
  /** False when the daemon never ran with this database (no file). */
  database_exists: boolean;
  stations: StationStatus[];
  /** Stations with history but no longer configured. */
  unconfigured_with_history: string[];
  /** Where the station values come from: the running daemon (live), or only the database. */
  source?: 'daemon' | 'database';
  /** The daemon's address asked, and why it did not answer. */
  daemon?: { url: string; answered: boolean; reason?: string };
  /** When the database was last written (it is written every history.flushIntervalSeconds). */
  database_written_at?: string | null;
  /** Said when no configuration file was given and the stations come from the daemon or the database. */
  note?: string;
  /** Uploads that matched no configured station, by outcome and the last console's source. */
  unmatched_uploads: RefusedUploads[];
  /** The running daemon's MQTT side as its /health reports it (checks.mqtt), the account named. */
  mqtt?: { status: string; message: string };
}

export interface StatusStation {
  id: string;
  name: string;
  format: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * `databaseStations`: no configuration names the stations (no --config), so every station the
 * database holds is listed as one, not as "no longer configured".
 */
export async function readStatus(
  database: Database,
  path: string,
  configured: readonly StatusStation[],
  options: { databaseStations?: boolean } = {},
): Promise<StatusReport> {
  const latestRows = await database.all<{ station: string; field: string; value: number; at_ms: number }>(
    'SELECT station, field, value, at_ms FROM history_latest ORDER BY station, field',
  );
  const stateRows = await database.all<{ station: string; mowable: number }>('SELECT station, mowable FROM history_station_state');
  const bucketRows = await database.all<{ station: string; minutes: number; first: number }>(
    'SELECT station, COUNT(*) AS minutes, MIN(minute) AS first FROM history_buckets GROUP BY station',
  );
  const mowable = new Map(stateRows.map((row) => [row.station, row.mowable === 1]));
  const buckets = new Map(bucketRows.map((row) => [row.station, row]));
  const withHistory = new Set([...latestRows.map((row) => row.station), ...buckets.keys()]);
  const stations = options.databaseStations
    ? [
        ...configured,
        ...[...withHistory]
          .filter((id) => !configured.some((station) => station.id === id))
          .sort()
          .map((id) => ({ id, name: id, format: 'unknown' })),
      ]
    : configured;
  const known = new Set(stations.map((station) => station.id));
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

/** `timeZone`: the configured `timezone` (its clock, with the offset, for every time shown; the JSON keeps UTC). */
export function renderStatus(report: StatusReport, nowMs: number, timeZone = 'UTC'): string {
  const at = (isoTime: string): string => `${localIsoText(isoTime, timeZone)} (${ago(isoTime, nowMs)})`;
  if (!report.database_exists) {
    return `The daemon has not run with this database yet: ${report.database} does not exist.\nStart it with "mowability serve" (or the systemd service); check db.path / MOWABILITY_DB_PATH if it already runs.\n`;
  }
  const lines = [`Database: ${report.database}`, ...sourceLines(report, at)];
  if (report.stations.length === 0) lines.push('No stations configured (add a "stations" list to the config file, see docs/mqtt.md).');
  for (const station of report.stations) {
    lines.push('', `${station.id} (${station.name}, ${station.format})`);
    const lastReading = station.live ? station.live.last_reading_at : station.last_reading_at;
    const mowable = station.live ? station.live.mowable : station.mowable;
    lines.push(`  last reading: ${lastReading === null ? 'none yet' : at(lastReading)}`);
    // Why nothing arrives (a provider outage) is the mowable reason below: said once.
    if (station.format === MODELLED_FORMAT) lines.push('  source:       modelled from Open-Meteo, not measured');
    if (station.live)
      lines.push(
        `  index:        ${station.live.index === null ? 'none yet' : `${station.live.index} (${station.live.status ?? '-'})`}, ${station.live.availability}`,
      );
    const heard = station.live?.topics_heard;
    if (heard) lines.push(`  topics:       nothing on ${heard.subscribed}; seen: ${heard.seen.join(', ')} (check the station's "topic")`);
    lines.push(
      `  mowable:      ${mowable === null ? 'not decided yet' : mowable ? 'yes' : 'no'}${station.live?.mowable_reason ? ` (${station.live.mowable_reason})` : ''}`,
    );
    const forecastProblem = station.live?.forecast_problem;
    if (forecastProblem) lines.push(`  forecast:     cannot be fetched: ${forecastProblem}`);
    const notifyLine = planNotifyLine(station.live?.plan_notify, at);
    if (notifyLine) lines.push(notifyLine);
    const values = Object.entries(station.latest).map(([field, { value }]) => `${field} ${Math.round(value * 100) / 100}`);
    if (values.length > 0)
      lines.push(`  latest:       ${values.join(', ')} (as of the last database write, every history.flushIntervalSeconds)`);
    if (station.night_ban !== undefined) lines.push(`  night ban:    ${station.night_ban}`);
    lines.push(
      `  history:      ${station.history_minutes} minutes${station.history_since ? ` since ${localIsoText(station.history_since, timeZone)}` : ''}`,
    );
    lines.push(...renderStationRefusals(station.uploads_refused ?? [], (at) => ago(at, nowMs)));
  }
  lines.push(...renderUnmatched(report.unmatched_uploads ?? [], (at) => ago(at, nowMs)));
  if (report.unconfigured_with_history.length > 0)
    lines.push('', `History of stations no longer configured: ${report.unconfigured_with_history.join(', ')}`);
  if (report.source !== 'daemon')
    lines.push('', "The index itself is computed live: see the station's MQTT state topic or Home Assistant.");
  return `${lines.join('\n')}\n`;
}

/** The plan notifications' line when calls failed (plan.notifyService); undefined while none did. */
function planNotifyLine(notify: LiveStation['plan_notify'], at: (isoTime: string) => string): string | undefined {
  if (!notify || notify.failed === 0) return undefined;
  const total = notify.sent + notify.failed;
  const head = `  plan notify:  ${notify.service}: ${notify.failed} of ${total} ${total === 1 ? 'call' : 'calls'} failed`;
  if (notify.last_error === null) return `${head} (the last one went through)`;
  const when = notify.last_error_at ? `, the last ${at(notify.last_error_at)}` : '';
  // '' on an open status page (the cause may name the Home Assistant address): the state topic has it.
  const cause = notify.last_error === '' ? 'its cause is in the state topic (plan.notify)' : notify.last_error;
  return `${head}${when}: ${cause}`;
}

/** Where the values come from: live from the daemon, or the database with its age. */
function sourceLines(report: StatusReport, at: (isoTime: string) => string): string[] {
  const lines: string[] = [];
  if (report.daemon?.answered) lines.push(`Live from the running daemon at ${report.daemon.url}.`);
  else if (report.daemon) {
    const written = report.database_written_at ? `, last written ${at(report.database_written_at)}` : '';
    lines.push(`The daemon did not answer at ${report.daemon.url}: ${report.daemon.reason ?? 'unknown'}.`);
    lines.push(
      `Showing the database instead${written}; the daemon writes it every few minutes (history.flushIntervalSeconds), so it can lag behind.`,
    );
  }
  if (report.mqtt) lines.push(`MQTT: ${report.mqtt.status === 'ok' ? '' : `${report.mqtt.status}: `}${report.mqtt.message}`);
  if (report.note) lines.push(report.note);
  return lines;
}
