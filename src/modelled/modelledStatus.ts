/**
 * What a modelled station tells its users: the start-up line saying what will be fetched and how
 * often, and the state's `modelled` object (provider, status in words, last fetch). Pure.
 */
import { localDateTime } from '../core/index.js';
import type { StationConfig, StationLocation } from '../ingest/types.js';
import { BACKFILL_DAYS } from './modelledRequest.js';
import type { RoundMemory } from './modelledRound.js';

/** A round's bookkeeping per station. */
export interface ModelledProgress {
  failures: number;
  lastError?: string;
  /** The last error was a refused redirect (a setting to fix): the outage sentence names it. */
  lastErrorRedirectRefused?: boolean;
  failingSinceMs?: number | undefined;
  lastFetchAtMs?: number;
  lastOkAtMs?: number;
  memory: RoundMemory;
}

export type ModelledStatus = 'waiting' | 'ok' | 'no_data_provider_unreachable' | 'provider_unreachable';

export interface ModelledView {
  provider: 'open-meteo';
  status: ModelledStatus;
  /** The status in words, for the page and `mowability status`. */
  message: string;
  last_fetch_at: string | null;
  last_success_at: string | null;
  failed_rounds: number;
  last_error: string | null;
  /** Since when the provider has not answered (ISO), null while it answers. */
  failing_since: string | null;
  attribution: string;
}

const HOUR_MINUTES = 60;
const DAY_MINUTES = 24 * HOUR_MINUTES;

/** Requests a day at one interval (the backfill and retries aside). */
export function requestsPerDay(intervalMinutes: number): number {
  return Math.ceil(DAY_MINUTES / intervalMinutes);
}

export function modelledPlan(
  station: Pick<StationConfig, 'id'> & { location: StationLocation },
  intervalMinutes: number,
  baseUrl: string,
): string {
  const { latitude, longitude } = station.location;
  return (
    `station "${station.id}" is modelled from Open-Meteo (${baseUrl}) at ${latitude}, ${longitude}: ${BACKFILL_DAYS} days of hourly history on the first start, ` +
    `then the current conditions and the forecast every ${intervalMinutes} min (about ${requestsPerDay(intervalMinutes)} requests a day). ` +
    'Data by Open-Meteo.com (CC BY 4.0), free for non-commercial use'
  );
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

function statusOf(progress: ModelledProgress, hasData: boolean): ModelledStatus {
  if (progress.failures > 0) return hasData ? 'provider_unreachable' : 'no_data_provider_unreachable';
  return hasData ? 'ok' : 'waiting';
}

/** The local clock time of `ms` in `timeZone`: "21:40", or "2026-06-14 21:40" on another day than `nowMs`. */
function localClock(ms: number, nowMs: number, timeZone: string): string {
  const at = localDateTime(ms, timeZone);
  const now = localDateTime(nowMs, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(at.hour)}:${pad(at.minute)}`;
  return at.year === now.year && at.month === now.month && at.day === now.day ? time : `${at.year}-${pad(at.month)}-${pad(at.day)} ${time}`;
}

/**
 * The one sentence for a provider outage, the same in the state's reason, its `modelled.message`,
 * the page and `mowability status`: since when (local time of `timezone`), and that it is retried.
 */
export function outageSentence(failingSinceMs: number, nowMs: number, timeZone: string, lang: 'en' | 'de'): string {
  const since = localClock(failingSinceMs, nowMs, timeZone);
  return lang === 'de'
    ? `der Wetterdienst Open-Meteo ist seit ${since} nicht erreichbar, neuer Versuch läuft`
    : `the weather provider Open-Meteo is unreachable since ${since}, retrying`;
}

/**
 * A refused redirect (../openmeteo/redirects.ts) is a setting to fix, not a passing outage: the
 * outage sentence then carries the client's own words, which name forecast.openMeteoUrl.
 */
function fixHint(progress: ModelledProgress): string {
  return progress.lastError !== undefined && progress.lastErrorRedirectRefused === true ? ` (${progress.lastError})` : '';
}

function messageOf(status: ModelledStatus, progress: ModelledProgress, nowMs: number, timeZone: string): string {
  const outage = (): string => `${outageSentence(progress.failingSinceMs ?? nowMs, nowMs, timeZone, 'en')}${fixHint(progress)}`;
  switch (status) {
    case 'waiting':
      return 'no data yet (waiting for the first answer from Open-Meteo)';
    case 'no_data_provider_unreachable':
      return `no data yet: ${outage()}`;
    case 'provider_unreachable':
      return `${outage()}; the last modelled values are used until they are stale, the gap is filled when it answers`;
    case 'ok':
      return 'modelled from Open-Meteo (not measured)';
  }
}

/** `nowMs` and `timeZone`: for the outage's local clock time. */
export function modelledView(
  progress: ModelledProgress,
  lastReadingAtMs: number | null,
  attribution: string,
  nowMs = Date.now(),
  timeZone = 'UTC',
): ModelledView {
  const status = statusOf(progress, lastReadingAtMs !== null);
  return {
    provider: 'open-meteo',
    status,
    message: messageOf(status, progress, nowMs, timeZone),
    last_fetch_at: iso(progress.lastFetchAtMs),
    last_success_at: iso(progress.lastOkAtMs),
    failed_rounds: progress.failures,
    last_error: progress.lastError ?? null,
    failing_since: progress.failures > 0 ? iso(progress.failingSinceMs) : null,
    attribution,
  };
}
