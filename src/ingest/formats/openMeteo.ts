/**
 * An Open-Meteo answer (https://open-meteo.com/en/docs, `timeformat=unixtime`) as station
 * readings of a modelled station: one reading per past hour (instantaneous values at the hour,
 * `precipitation` as the rain of the hour before it) and one for the current conditions (15-minute
 * values; their precipitation becomes a rate). Values go through the same range checks as any
 * station's (../builder.ts): an implausible one is dropped and named. An answer that is not an
 * Open-Meteo shape is refused as a whole with the reason. Pure.
 */
import { ReadingBuilder } from '../builder.js';
import type { CurrentField, Reading } from '../types.js';

/** Open-Meteo variable → field and the unit it arrives in (soil moisture: m³/m³, scaled to %). */
export const MODELLED_VARIABLES: ReadonlyArray<readonly [string, CurrentField, string, number]> = [
  ['temperature_2m', 'temperature', 'C', 1],
  ['relative_humidity_2m', 'humidity', '%', 1],
  ['dew_point_2m', 'dew_point', 'C', 1],
  ['wind_speed_10m', 'wind_speed', 'km/h', 1],
  ['wind_gusts_10m', 'wind_gusts', 'km/h', 1],
  ['shortwave_radiation', 'solar', 'W/m2', 1],
  ['soil_temperature_6cm', 'soil_temperature', 'C', 1],
  ['soil_moisture_3_to_9cm', 'soil_moisture', '%', 100],
];
export const PRECIPITATION = 'precipitation';
/** The `current=` variables requested. */
export const MODELLED_CURRENT = [...MODELLED_VARIABLES.map(([name]) => name), PRECIPITATION];
/** Most hours one answer may hold: 14 past days, 7 ahead (the week's plan) and slack (a self-hosted server could send any length). */
export const MAX_MODELLED_HOURS = 24 * 22;
/** Fingerprints of a model's past hours start with this. */
const HOUR_FINGERPRINT = 'open-meteo:hour:';

/**
 * A reading of one of the model's past hours (a backfill or catch-up): its rain is booked in its
 * own hour by the history, it is not rain that just fell (src/station/recentRain.ts).
 */
export function isModelHour(reading: Pick<Reading, 'fingerprint'>): boolean {
  return reading.fingerprint.startsWith(HOUR_FINGERPRINT);
}
/** Open-Meteo's current conditions cover 15 minutes; other intervals are refused as not understood. */
const MIN_INTERVAL_S = 60;
const MAX_INTERVAL_S = 3600;

export interface ModelledAnswer {
  /** Readings of the hours at or before `nowMs`, oldest first (hours without any value are left out). */
  hours: Reading[];
  /** The current conditions, when the answer has them. */
  current?: Reading;
}

export type ModelledParse = { ok: true; answer: ModelledAnswer } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unixSeconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 1_000_000_000 && value < 1e11 ? value : undefined;
}

/** The value at `index` of every requested column, or why a column is not a list. */
function columns(
  series: Record<string, unknown>,
): { ok: true; at: (name: string, index: number) => unknown } | { ok: false; reason: string } {
  for (const name of [...MODELLED_CURRENT]) {
    const column = series[name];
    if (column !== undefined && !Array.isArray(column)) return { ok: false, reason: `hourly.${name} is not a list` };
  }
  return { ok: true, at: (name, index) => (series[name] as unknown[] | undefined)?.[index] };
}

function build(valueOf: (name: string) => unknown, where: string): ReadingBuilder {
  const builder = new ReadingBuilder();
  for (const [name, field, unit, factor] of MODELLED_VARIABLES) {
    const raw = valueOf(name);
    builder.add(field, typeof raw === 'number' ? raw * factor : raw, unit, `${where}.${name}`);
  }
  return builder;
}

function hourReadings(hourly: unknown, nowMs: number): { ok: true; hours: Reading[] } | { ok: false; reason: string } {
  if (hourly === undefined) return { ok: true, hours: [] };
  if (!isRecord(hourly)) return { ok: false, reason: '"hourly" is not an object' };
  const times = hourly.time;
  if (!Array.isArray(times)) return { ok: false, reason: 'the answer has no "hourly.time" list' };
  if (times.length > MAX_MODELLED_HOURS) return { ok: false, reason: `the answer has more than ${MAX_MODELLED_HOURS} hours` };
  const table = columns(hourly);
  if (!table.ok) return table;
  const hours: Reading[] = [];
  let previous = -Infinity;
  for (const [index, raw] of times.entries()) {
    const seconds = unixSeconds(raw);
    if (seconds === undefined || seconds <= previous)
      return { ok: false, reason: `hourly.time[${index}] is not a Unix time after the one before` };
    previous = seconds;
    if (seconds * 1000 > nowMs) continue;
    const builder = build((name) => table.at(name, index), `hourly[${index}]`);
    builder.addRainDelta(table.at(PRECIPITATION, index), 'mm', `hourly[${index}].${PRECIPITATION}`);
    if (!builder.hasData()) continue;
    builder.payloadTimeMs = seconds * 1000;
    const reading = builder.build('');
    hours.push({
      ...reading,
      fingerprint: `${HOUR_FINGERPRINT}${seconds}:${JSON.stringify([reading.values, reading.rainDeltaMm ?? null])}`,
    });
  }
  return { ok: true, hours };
}

function currentReading(current: unknown): { ok: true; reading?: Reading } | { ok: false; reason: string } {
  if (current === undefined) return { ok: true };
  if (!isRecord(current)) return { ok: false, reason: '"current" is not an object' };
  const seconds = unixSeconds(current.time);
  if (seconds === undefined) return { ok: false, reason: 'current.time is not a Unix time' };
  const interval = current.interval ?? 900;
  if (typeof interval !== 'number' || interval < MIN_INTERVAL_S || interval > MAX_INTERVAL_S)
    return { ok: false, reason: 'current.interval is not a number of seconds from 60 to 3600' };
  const builder = build((name) => current[name], 'current');
  const precipitation = current[PRECIPITATION];
  // The sum of the interval before `time`, as a rate: the rain amounts themselves come from the hours.
  builder.add(
    'precipitation_rate',
    typeof precipitation === 'number' ? (precipitation * 3600) / interval : precipitation,
    'mm/h',
    `current.${PRECIPITATION}`,
  );
  if (!builder.hasData()) return { ok: true };
  builder.payloadTimeMs = seconds * 1000;
  const reading = builder.build('');
  return { ok: true, reading: { ...reading, fingerprint: `open-meteo:current:${seconds}:${JSON.stringify(reading.values)}` } };
}

/** The readings of an answer, or why it is refused. */
export function parseModelledAnswer(body: unknown, nowMs: number): ModelledParse {
  if (!isRecord(body)) return { ok: false, reason: 'the answer is not a JSON object' };
  if (body.error === true)
    return {
      ok: false,
      reason: `the provider refused the request: ${typeof body.reason === 'string' ? body.reason.slice(0, 200) : 'no reason given'}`,
    };
  if (body.hourly === undefined && body.current === undefined)
    return { ok: false, reason: 'the answer has neither "hourly" nor "current"' };
  const hours = hourReadings(body.hourly, nowMs);
  if (!hours.ok) return hours;
  const current = currentReading(body.current);
  if (!current.ok) return current;
  return { ok: true, answer: { hours: hours.hours, ...(current.reading ? { current: current.reading } : {}) } };
}
