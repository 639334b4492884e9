/**
 * What a modelled station asks Open-Meteo for: the forecast's hourly variables (so one request
 * serves the station and its forecast), the current conditions, and as many past hours as the
 * history lacks: 14 days on the first start, a few hours once it is up to date, the whole outage
 * after one. Pure.
 */
import { FORECAST_DAYS, OPEN_METEO_HOURLY, openMeteoRequestUrl } from '../openmeteo/openMeteoResponse.js';
import { MODELLED_CURRENT } from '../ingest/formats/openMeteo.js';
import type { StationLocation } from '../ingest/types.js';
import { MINUTE_MS, RETENTION_MINUTES } from '../history/windows.js';

const HOUR_MS = 60 * MINUTE_MS;
/** The history's whole length: what the first request backfills. */
export const BACKFILL_DAYS = RETENTION_MINUTES / (24 * 60);
/** Hours asked for when the history is up to date: the last two, so a late model update is caught. */
const MIN_PAST_HOURS = 3;

/** How far back to ask: `past_hours` for a gap within a day, `past_days` beyond. */
export type PastSpan = { pastHours: number } | { pastDays: number };

/** The span that covers everything after the last hour the history holds (null: nothing yet). */
export function pastSpan(lastHourMs: number | null, nowMs: number): PastSpan {
  if (lastHourMs === null) return { pastDays: BACKFILL_DAYS };
  const missingHours = Math.ceil((nowMs - lastHourMs) / HOUR_MS) + 1;
  if (missingHours <= 24) return { pastHours: Math.max(MIN_PAST_HOURS, missingHours) };
  return { pastDays: Math.min(BACKFILL_DAYS, Math.ceil(missingHours / 24)) };
}

export function modelledUrl(baseUrl: string, location: StationLocation, span: PastSpan): string {
  return openMeteoRequestUrl(baseUrl, location, {
    hourly: OPEN_METEO_HOURLY.join(','),
    current: MODELLED_CURRENT.join(','),
    ...('pastDays' in span ? { past_days: String(span.pastDays) } : { past_hours: String(span.pastHours) }),
    forecast_days: String(FORECAST_DAYS),
  });
}

/** Gap filling's request: the current conditions only (a few hundred bytes). */
export function currentUrl(baseUrl: string, location: StationLocation): string {
  return openMeteoRequestUrl(baseUrl, location, { current: MODELLED_CURRENT.join(',') });
}
