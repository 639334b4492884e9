/**
 * The Open-Meteo settings `forecast.*` (a convict fragment): the connection and the intervals the
 * three units that ask Open-Meteo share (the forecast, src/forecast/; the modelled stations and
 * gap filling, src/modelled/). Each of those modules lists this one fragment, so it lives below
 * both (src/config/unitSettings.ts merges a fragment listed by several modules once).
 */
import { httpBaseUrl } from './settingFormats.js';

/** The global settings (config `forecast.*`). */
export interface ForecastSettings {
  openMeteoUrl: string;
  intervalMinutes: number;
  timeoutSeconds: number;
  retries: number;
  modelledIntervalMinutes: number;
  rainLeadMinutes: number;
}

export const forecastSchema = {
  openMeteoUrl: {
    doc: 'Base URL of the Open-Meteo forecast API for stations with forecast.source "open-meteo" (a self-hosted Open-Meteo works too). Data: Open-Meteo, CC BY 4.0.',
    format: httpBaseUrl,
    default: 'https://api.open-meteo.com',
    env: 'MOWABILITY_FORECAST_OPEN_METEO_URL',
    arg: 'forecast-open-meteo-url',
  },
  intervalMinutes: {
    doc: "How often each station's forecast is fetched (±10 % jitter). A forecast older than three intervals is marked stale and no longer holds mowable off; MQTT forecasts are held to the same age.",
    format: 'positive-int',
    default: 60,
    env: 'MOWABILITY_FORECAST_INTERVAL_MINUTES',
    arg: 'forecast-interval-minutes',
  },
  timeoutSeconds: {
    doc: 'How long one forecast request may take before it is abandoned (and retried).',
    format: 'positive-int',
    default: 15,
    env: 'MOWABILITY_FORECAST_TIMEOUT_SECONDS',
    arg: 'forecast-timeout-seconds',
  },
  retries: {
    doc: 'Retries of a failed forecast request (network error, timeout, HTTP 429 or 5xx), with back-off 5 s, 10 s, 20 s, ... (Retry-After honoured, at most 60 s).',
    format: 'nat',
    default: 3,
    env: 'MOWABILITY_FORECAST_RETRIES',
    arg: 'forecast-retries',
  },
  modelledIntervalMinutes: {
    doc: 'How often a modelled station (format "open-meteo") fetches the current conditions and its forecast, one request for both (±10 % jitter; Open-Meteo updates them every 15 min). The first start also fetches 14 days of hourly history.',
    format: 'positive-int',
    default: 15,
    env: 'MOWABILITY_FORECAST_MODELLED_INTERVAL_MINUTES',
    arg: 'forecast-modelled-interval-minutes',
  },
  rainLeadMinutes: {
    doc: 'mowable turns off early (reason rain_expected) when the forecast expects rain within this many minutes; 0: never.',
    format: 'nat',
    default: 20,
    env: 'MOWABILITY_FORECAST_RAIN_LEAD_MINUTES',
    arg: 'forecast-rain-lead-minutes',
  },
};

/** The settings fragment under `forecast`: one object, listed by every module that asks Open-Meteo (src/config/unitSettings.ts). */
export const FORECAST_SETTINGS = { key: 'forecast', schema: forecastSchema } as const;
