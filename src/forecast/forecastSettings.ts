/**
 * What the forecast module (./forecastModule.ts) brings to the configuration: its global settings
 * `forecast.*` (a convict fragment; the Open-Meteo connection in it serves the modelled stations and
 * gap filling too, src/modelled/, which share the fragment) and its key `forecast` in each station
 * object with the key's validation.
 */
import { httpBaseUrl } from '../config/settingFormats.js';
import { isPlainObject, topicFilterProblem, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';

/** The global settings (config `forecast.*`). */
export interface ForecastSettings {
  openMeteoUrl: string;
  intervalMinutes: number;
  timeoutSeconds: number;
  retries: number;
  modelledIntervalMinutes: number;
  rainLeadMinutes: number;
}

/** Where a station's weather forecast comes from; `minJobMinutes`: shortest useful mowing window. */
export interface StationForecastConfig {
  source: 'open-meteo' | 'mqtt';
  /** `mqtt`: the topic carrying the forecast JSON (docs/mqtt.md). */
  topic?: string;
  minJobMinutes?: number;
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
    doc: 'How often each station\'s forecast is fetched (±10 % jitter). A forecast older than three intervals is marked stale and no longer holds mowable off; MQTT forecasts are held to the same age.',
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

const FORECAST_KEYS = ['source', 'topic', 'minJobMinutes'];
const FORECAST_SOURCES = ['open-meteo', 'mqtt'];
/** A mowing job of more than a day is not a job; the forecast looks 48 hours ahead. */
export const MAX_MIN_JOB_MINUTES = 24 * 60;

function forecastProblems(forecast: unknown, problem: Problem, station: Readonly<Record<string, unknown>>): void {
  if (!isPlainObject(forecast)) return problem('forecast', 'must be an object {"source": "open-meteo"} or {"source": "mqtt", "topic": "..."}');
  for (const key of Object.keys(forecast)) if (!FORECAST_KEYS.includes(key)) problem(`forecast.${key}`, `is not allowed (only ${FORECAST_KEYS.join(', ')})`);
  if (typeof forecast.source !== 'string' || !FORECAST_SOURCES.includes(forecast.source)) problem('forecast.source', `must be one of ${FORECAST_SOURCES.join(', ')}`);
  if (forecast.source === 'open-meteo' && station.location === undefined) problem('forecast.source', '"open-meteo" needs the station\'s "location" {"latitude": ..., "longitude": ...}');
  if (forecast.source === 'mqtt') {
    if (typeof forecast.topic !== 'string') problem('forecast.topic', 'is required for source "mqtt": the topic carrying the forecast JSON (docs/mqtt.md)');
    else {
      const topicProblem = topicFilterProblem(forecast.topic);
      if (topicProblem) problem('forecast.topic', topicProblem);
      else if (forecast.topic.includes('+') || forecast.topic.includes('#')) problem('forecast.topic', 'must be a concrete topic (no wildcards)');
    }
  } else if (forecast.topic !== undefined) problem('forecast.topic', 'is only used by source "mqtt"');
  const minutes = forecast.minJobMinutes;
  if (minutes !== undefined && (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MIN_JOB_MINUTES)) {
    problem('forecast.minJobMinutes', `must be a whole number of minutes from 1 to ${MAX_MIN_JOB_MINUTES} (e.g. 90 for a robot mower, 45 for a walk-behind)`);
  }
}

/** The station key `forecast`, its validation and its topic (none may lie under mqtt.baseTopic). */
export const FORECAST_STATION_KEY: UnitStationKey = {
  key: 'forecast',
  problems: forecastProblems,
  topics: (value) => {
    const topic = isPlainObject(value) ? value.topic : undefined;
    return typeof topic === 'string' ? [topic] : [];
  },
};
