/**
 * The forecast module's (./forecastModule.ts) key `forecast` in each station object, with the key's
 * validation. Its global settings `forecast.*` are the Open-Meteo settings it shares with the
 * modelled stations and gap filling (src/config/openMeteoSettings.ts).
 */
import { isPlainObject, topicFilterProblem, type Problem, type UnitStationKey } from '../ingest/stationConfig.js';

/** Where a station's weather forecast comes from; `minJobMinutes`: shortest useful mowing window. */
export interface StationForecastConfig {
  source: 'open-meteo' | 'mqtt';
  /** `mqtt`: the topic carrying the forecast JSON (docs/mqtt.md). */
  topic?: string;
  minJobMinutes?: number;
}

const FORECAST_KEYS = ['source', 'topic', 'minJobMinutes'];
const FORECAST_SOURCES = ['open-meteo', 'mqtt'];
/** A mowing job of more than a day is not a job; the forecast looks 48 hours ahead. */
export const MAX_MIN_JOB_MINUTES = 24 * 60;

function forecastProblems(forecast: unknown, problem: Problem, station: Readonly<Record<string, unknown>>): void {
  if (!isPlainObject(forecast))
    return problem('forecast', 'must be an object {"source": "open-meteo"} or {"source": "mqtt", "topic": "..."}');
  for (const key of Object.keys(forecast))
    if (!FORECAST_KEYS.includes(key)) problem(`forecast.${key}`, `is not allowed (only ${FORECAST_KEYS.join(', ')})`);
  if (typeof forecast.source !== 'string' || !FORECAST_SOURCES.includes(forecast.source))
    problem('forecast.source', `must be one of ${FORECAST_SOURCES.join(', ')}`);
  if (forecast.source === 'open-meteo' && station.location === undefined)
    problem('forecast.source', '"open-meteo" needs the station\'s "location" {"latitude": ..., "longitude": ...}');
  if (forecast.source === 'mqtt') {
    if (typeof forecast.topic !== 'string')
      problem('forecast.topic', 'is required for source "mqtt": the topic carrying the forecast JSON (docs/mqtt.md)');
    else {
      const topicProblem = topicFilterProblem(forecast.topic);
      if (topicProblem) problem('forecast.topic', topicProblem);
      else if (forecast.topic.includes('+') || forecast.topic.includes('#'))
        problem('forecast.topic', 'must be a concrete topic (no wildcards)');
    }
  } else if (forecast.topic !== undefined) problem('forecast.topic', 'is only used by source "mqtt"');
  const minutes = forecast.minJobMinutes;
  if (
    minutes !== undefined &&
    (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MIN_JOB_MINUTES)
  ) {
    problem(
      'forecast.minJobMinutes',
      `must be a whole number of minutes from 1 to ${MAX_MIN_JOB_MINUTES} (e.g. 90 for a robot mower, 45 for a walk-behind)`,
    );
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
