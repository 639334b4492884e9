/**
 * What every station upload parser shares (Ecowitt/Ambient PASSKEY bodies,
 * Weather Underground query strings): the form fields, the missing-value
 * marker, reading values and one rain counter in the body's units, the
 * reading time and the outcome. Pure: fields in, builder filled.
 */
import { ReadingBuilder, fingerprintOf } from '../builder.js';
import type { CurrentField, ParseOutcome, StationConfig } from '../types.js';
import { uploadTime, uploadTimeProblem } from './uploadTime.js';

/** Form fields as the body parser produced them (strings; a repeated key may give a list). */
export type UploadFields = Readonly<Record<string, unknown>>;

export type UploadKind = 'temperature' | 'speed' | 'rate' | 'depth' | '%' | 'W/m2' | 'lux';
/** The units a field name is in: the station's (imperial unless configured), or always metric. */
export type UploadSystem = 'metric' | 'imperial';
/** Field → candidate keys in order of preference, what the value measures, and a fixed unit system if the names have one. */
export type ValueKeys = ReadonlyArray<readonly [CurrentField, readonly string[], UploadKind, UploadSystem?]>;

export const UPLOAD_UNITS: Record<UploadSystem, Record<UploadKind, string>> = {
  imperial: { temperature: 'F', speed: 'mph', rate: 'in/h', depth: 'in', '%': '%', 'W/m2': 'W/m2', lux: 'lx' },
  metric: { temperature: 'C', speed: 'km/h', rate: 'mm/h', depth: 'mm', '%': '%', 'W/m2': 'W/m2', lux: 'lx' },
};

/** Keys that are not part of the reading's content (the secret, uptime, memory). */
export const UPLOAD_VOLATILE_KEYS = new Set(['PASSKEY', 'PASSWORD', 'ID', 'runtime', 'heap', 'interval', 'action', 'realtime', 'rtfreq']);

/** WU, Ecowitt and Fine Offset consoles mark a missing sensor with -9999; an empty string is no value either. */
export function presentValue(fields: UploadFields, key: string): unknown {
  const value = fields[key];
  if (value === undefined || value === null || value === '' || value === -9999) return undefined;
  if (typeof value === 'string' && /^\s*-9999(\.0*)?\s*$/.test(value)) return undefined;
  return value;
}

function stationSystem(station: StationConfig): UploadSystem {
  return station.units === 'metric' ? 'metric' : 'imperial';
}

/** Adds every field of `keys` found in `fields`, in the names' fixed units or the station's (imperial unless told). */
export function addValues(builder: ReadingBuilder, station: StationConfig, fields: UploadFields, keys: ValueKeys): void {
  const overrides = typeof station.units === 'object' ? station.units : {};
  for (const [field, candidates, kind, fixed] of keys) {
    const key = candidates.find((candidate) => presentValue(fields, candidate) !== undefined);
    if (key !== undefined) builder.add(field, fields[key], overrides[field] ?? UPLOAD_UNITS[fixed ?? stationSystem(station)][kind], key);
  }
}

/** One counter candidate: its key and, for names with fixed units, the system. */
export type CounterKey = string | readonly [string, UploadSystem];

/** Adds the first counter of `counters` present, keyed by format and field (a new key starts a new baseline). */
export function addCounter(builder: ReadingBuilder, station: StationConfig, fields: UploadFields, counters: readonly CounterKey[]): void {
  const found = counters
    .map((entry) => (typeof entry === 'string' ? ([entry, undefined] as const) : entry))
    .find(([key]) => presentValue(fields, key) !== undefined);
  if (found === undefined) return;
  const [key, fixed] = found;
  const unit = typeof station.units === 'object' ? station.units.rain_total : undefined;
  builder.addRainCounter(`${station.format}/${key}`, fields[key], unit ?? UPLOAD_UNITS[fixed ?? stationSystem(station)].depth, key);
}

/** The outcome once values are collected: a reading, or why there is none. */
export function finish(builder: ReadingBuilder, fields: UploadFields): ParseOutcome {
  const time = uploadTime(fields.dateutc);
  if (time === false) return { kind: 'rejected', reason: uploadTimeProblem(fields.dateutc) };
  if (time !== undefined) builder.payloadTimeMs = time;
  if (!builder.hasData())
    return { kind: 'rejected', reason: builder.dropped.join('; ') || 'no weather field found (every sensor missing or -9999)' };
  return { kind: 'reading', reading: builder.build(fingerprintOf(fields, UPLOAD_VOLATILE_KEYS)) };
}

/**
 * Fields of an upload as text: the form body, or a query string (anything up to a "?" is
 * dropped, as is a leading "&" or "/" where a console glued the fields onto the path).
 * A repeated key keeps its last value.
 */
export function formFields(text: string): UploadFields {
  const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : text;
  return Object.fromEntries(new URLSearchParams(query.trim().replace(/^[/&]+/, '')));
}
