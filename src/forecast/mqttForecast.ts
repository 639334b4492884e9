/**
 * The MQTT forecast topic (docs/mqtt.md, "Forecast"): a JSON object with a list
 * of hourly entries, in the shape Home Assistant's `weather.get_forecasts`
 * action returns (so an automation can publish its response as it is):
 *
 *   {"forecast": [{"datetime": "2026-06-15T14:00:00+02:00", "temperature": 21.5,
 *     "humidity": 60, "dew_point": 12.9, "wind_speed": 11, "wind_gust_speed": 25,
 *     "precipitation": 0.4, "precipitation_probability": 30}, ...]}
 *
 * The action's raw response, keyed by the weather entity's id, is accepted as
 * it is (what a user pastes from Developer tools): `{"weather.home": {"forecast": [...]}}`;
 * it must name one entity. `hourly` is accepted for `forecast`, `time` for `datetime` (ISO 8601 or Unix
 * seconds), `wind_gusts` for `wind_gust_speed`; `solar` (W/m²), `soil_temperature`
 * (°C) and `soil_moisture` (%) are optional extras. Units are metric (°C, km/h,
 * mm, %), as HA reports them in a metric unit system. Each entry describes the
 * hour that starts at `datetime` (HA's convention), so its end names the hour here.
 */
import type { ForecastField, ForecastHour } from '../core/forecastProjection.js';
import { HOUR_MS } from '../core/forecastProjection.js';

/** A 48-hour forecast is a few kB; anything much larger is not one. */
export const MAX_FORECAST_PAYLOAD_BYTES = 256 * 1024;
export const MAX_FORECAST_ENTRIES = 240;

const FIELD_KEYS: ReadonlyArray<readonly [ForecastField, readonly string[]]> = [
  ['temperature', ['temperature']],
  ['humidity', ['humidity']],
  ['dew_point', ['dew_point']],
  ['wind_speed', ['wind_speed']],
  ['wind_gusts', ['wind_gust_speed', 'wind_gusts']],
  ['solar', ['solar']],
  ['soil_temperature', ['soil_temperature']],
  ['soil_moisture', ['soil_moisture']],
];

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function entryOf(raw: unknown, index: number): ForecastHour | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `entry ${index} is not an object`;
  const entry = raw as Record<string, unknown>;
  const startMs = timeOf(entry.datetime ?? entry.time);
  if (startMs === undefined) return `entry ${index} has no "datetime" (ISO 8601 with offset, or Unix seconds)`;
  const values: ForecastHour['values'] = {};
  for (const [field, keys] of FIELD_KEYS) {
    const value = keys.map((key) => finite(entry[key])).find((v) => v !== undefined);
    if (value !== undefined) values[field] = value;
  }
  const hour: ForecastHour = { timeMs: startMs + HOUR_MS, values };
  const precipitation = finite(entry.precipitation);
  const probability = finite(entry.precipitation_probability);
  if (precipitation !== undefined) hour.precipitationMm = Math.max(0, precipitation);
  if (probability !== undefined) hour.precipitationProbabilityPct = probability;
  return hour;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The list of entries: top level, or under the one entity id of a raw `weather.get_forecasts` response. */
function forecastList(object: Record<string, unknown>): unknown[] | string {
  const own = object.forecast ?? object.hourly;
  if (own !== undefined) return Array.isArray(own) ? (own as unknown[]) : [];
  const entities = Object.entries(object).filter(
    ([key, value]) => key.includes('.') && isObject(value) && Array.isArray(value.forecast ?? value.hourly),
  );
  if (entities.length > 1)
    return `the response holds forecasts of ${entities.length} entities (${entities
      .map(([key]) => key)
      .slice(0, 3)
      .join(', ')}); publish one`;
  const inner = entities[0]?.[1] as Record<string, unknown> | undefined;
  return (inner?.forecast ?? inner?.hourly ?? []) as unknown[];
}

/** The forecast hours of one message, or why it was refused. */
export function parseForecastPayload(payload: Buffer): { ok: true; hours: ForecastHour[] } | { ok: false; reason: string } {
  if (payload.length > MAX_FORECAST_PAYLOAD_BYTES) return { ok: false, reason: `larger than ${MAX_FORECAST_PAYLOAD_BYTES} bytes` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, reason: 'not a JSON object' };
  const list = forecastList(parsed as Record<string, unknown>);
  if (typeof list === 'string') return { ok: false, reason: list };
  if (list.length === 0) return { ok: false, reason: 'no "forecast" (or "hourly") list of entries' };
  if (list.length > MAX_FORECAST_ENTRIES) return { ok: false, reason: `more than ${MAX_FORECAST_ENTRIES} entries` };
  const hours: ForecastHour[] = [];
  for (const [index, raw] of list.entries()) {
    const hour = entryOf(raw, index);
    if (typeof hour === 'string') return { ok: false, reason: hour };
    hours.push(hour);
  }
  return { ok: true, hours };
}
