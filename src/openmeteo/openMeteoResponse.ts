/**
 * The Open-Meteo forecast API (https://open-meteo.com/en/docs): the request
 * URL for a station's location and the parsing of its hourly response into
 * forecast hours in the API's units (src/core/fields.ts). Pure. Open-Meteo names each hour by its
 * time; instantaneous values hold for that instant, `precipitation` is the sum
 * of the preceding hour — the convention of src/core/forecastProjection.ts.
 */
import type { ForecastField, ForecastHour } from '../core/forecastProjection.js';
import type { StationLocation } from '../ingest/types.js';

/** Open-Meteo's terms ask for attribution (https://open-meteo.com/en/license): CC BY 4.0. */
export const OPEN_METEO_ATTRIBUTION = 'Weather data by Open-Meteo.com (CC BY 4.0)';

/** Hourly variables requested, and the forecast field each becomes (with a factor to the API's unit). */
const VARIABLES: ReadonlyArray<readonly [string, ForecastField, number]> = [
  ['temperature_2m', 'temperature', 1],
  ['relative_humidity_2m', 'humidity', 1],
  ['dew_point_2m', 'dew_point', 1],
  ['wind_speed_10m', 'wind_speed', 1],
  ['wind_gusts_10m', 'wind_gusts', 1],
  ['shortwave_radiation', 'solar', 1],
  ['soil_temperature_6cm', 'soil_temperature', 1],
  // m³/m³ → volumetric %.
  ['soil_moisture_3_to_9cm', 'soil_moisture', 100],
];
const PRECIPITATION = 'precipitation';
const PROBABILITY = 'precipitation_probability';
export const OPEN_METEO_HOURLY = [...VARIABLES.map(([name]) => name), PRECIPITATION, PROBABILITY];
/**
 * Two past hours (so the hour now is complete) and seven days ahead, in the one request: the week's
 * plan rates them all (src/lawn/planUnit.ts); the per-reading projection and windows use the first 48
 * hours only (FORECAST_HORIZON_HOURS).
 */
const PAST_HOURS = 2;
export const FORECAST_DAYS = 7;
/** Most hours accepted from one response (a self-hosted server could send any length): a modelled station's 14 past days and 7 ahead fit. */
export const MAX_FORECAST_HOURS = 24 * 22;

/**
 * An Open-Meteo `/v1/forecast` URL for `location` in the units and time format every answer is
 * parsed in; `query` adds what one request asks for (hourly variables, current conditions, span).
 * A base URL with a path (a reverse proxy prefix) keeps it.
 */
export function openMeteoRequestUrl(baseUrl: string, location: StationLocation, query: Readonly<Record<string, string>>): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v1/forecast`);
  const params = url.searchParams;
  params.set('latitude', String(location.latitude));
  params.set('longitude', String(location.longitude));
  if (location.elevation !== undefined) params.set('elevation', String(location.elevation));
  for (const [name, value] of Object.entries(query)) params.set(name, value);
  params.set('timeformat', 'unixtime');
  params.set('timezone', 'GMT');
  params.set('temperature_unit', 'celsius');
  params.set('wind_speed_unit', 'kmh');
  params.set('precipitation_unit', 'mm');
  return url.toString();
}

/** The forecast's request: the hourly variables from two hours back to seven days ahead. */
export function openMeteoUrl(baseUrl: string, location: StationLocation): string {
  return openMeteoRequestUrl(baseUrl, location, {
    hourly: OPEN_METEO_HOURLY.join(','),
    past_hours: String(PAST_HOURS),
    forecast_days: String(FORECAST_DAYS),
  });
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The forecast hours of a response body, or why it is not an Open-Meteo hourly forecast. */
export function parseOpenMeteo(body: unknown): { ok: true; hours: ForecastHour[] } | { ok: false; reason: string } {
  if (typeof body !== 'object' || body === null) return { ok: false, reason: 'the response is not a JSON object' };
  const hourly = (body as { hourly?: unknown }).hourly;
  if (typeof hourly !== 'object' || hourly === null) return { ok: false, reason: 'the response has no "hourly" object' };
  const series = hourly as Record<string, unknown>;
  const times = series.time;
  if (!Array.isArray(times) || times.length === 0) return { ok: false, reason: 'the response has no "hourly.time" list' };
  if (times.length > MAX_FORECAST_HOURS) return { ok: false, reason: `the response has more than ${MAX_FORECAST_HOURS} hours` };
  const column = (name: string): unknown[] => (Array.isArray(series[name]) ? (series[name] as unknown[]) : []);
  const hours: ForecastHour[] = [];
  for (const [i, time] of times.entries()) {
    const seconds = finite(time);
    if (seconds === undefined) return { ok: false, reason: `hourly.time[${i}] is not a Unix time` };
    const values: ForecastHour['values'] = {};
    for (const [name, field, factor] of VARIABLES) {
      const value = finite(column(name)[i]);
      if (value !== undefined) values[field] = value * factor;
    }
    const hour: ForecastHour = { timeMs: seconds * 1000, values };
    const precipitation = finite(column(PRECIPITATION)[i]);
    const probability = finite(column(PROBABILITY)[i]);
    if (precipitation !== undefined) hour.precipitationMm = Math.max(0, precipitation);
    if (probability !== undefined) hour.precipitationProbabilityPct = probability;
    hours.push(hour);
  }
  return { ok: true, hours };
}
