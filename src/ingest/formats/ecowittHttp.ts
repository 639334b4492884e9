/**
 * Ecowitt gateways' "Customized" upload in the Ecowitt protocol: a form POST
 * of strings in imperial units (tempf °F, windspeedmph mph, *rainin inches,
 * solarradiation W/m2, soilmoistureN %). `dateutc` is UTC. Rain windows
 * (hourly, daily, weekly, ...) reset by the gateway's clock, so only one
 * counter is used, the longest one sent: totalrainin, else yearlyrainin
 * (a new year is a counter reset), else dailyrainin (midnight is a reset).
 * A WS90/WS85 piezo gauge (`*_piezo`) is read when no tipping bucket reports.
 * Pure: fields in, reading out; matching the PASSKEY is the HTTP side's job.
 */
import { ReadingBuilder, fingerprintOf } from '../builder.js';
import { parseTimestamp } from '../time.js';
import type { CurrentField, ParseOutcome, StationConfig } from '../types.js';

/** Form fields as the body parser produced them (strings; a repeated key may give a list). */
export type UploadFields = Readonly<Record<string, unknown>>;

export type UploadKind = 'temperature' | 'speed' | 'rate' | 'depth' | '%' | 'W/m2';
/** Field → candidate keys in order of preference, and what the value measures. */
export type ValueKeys = ReadonlyArray<readonly [CurrentField, readonly string[], UploadKind]>;

const UNITS: Record<'metric' | 'imperial', Record<UploadKind, string>> = {
  imperial: { temperature: 'F', speed: 'mph', rate: 'in/h', depth: 'in', '%': '%', 'W/m2': 'W/m2' },
  // Only for a relay that converted the body (the gateways themselves always send imperial).
  metric: { temperature: 'C', speed: 'km/h', rate: 'mm/h', depth: 'mm', '%': '%', 'W/m2': 'W/m2' },
};

const CHANNELS = [1, 2, 3, 4, 5, 6, 7, 8];

const VALUE_KEYS: ValueKeys = [
  ['temperature', ['tempf'], 'temperature'],
  ['humidity', ['humidity'], '%'],
  ['wind_speed', ['windspeedmph', 'windspdmph_avg10m'], 'speed'],
  ['wind_gusts', ['windgustmph'], 'speed'],
  ['solar', ['solarradiation'], 'W/m2'],
  // The lowest channel present: channel 1 unless the user numbered their sensors otherwise.
  ['soil_moisture', CHANNELS.map((n) => `soilmoisture${n}`), '%'],
  ['soil_temperature', CHANNELS.flatMap((n) => [`tf_ch${n}`, `soiltemp${n}f`]), 'temperature'],
];

/** One rain gauge: its rate key and its counters, longest window first. */
const GAUGES = {
  bucket: { rate: 'rainratein', counters: ['totalrainin', 'yearlyrainin', 'dailyrainin'] },
  piezo: { rate: 'rrain_piezo', counters: ['yrain_piezo', 'drain_piezo'] },
} as const;

/** Keys that are not part of the reading's content (the secret, uptime, memory). */
export const UPLOAD_VOLATILE_KEYS = new Set(['PASSKEY', 'PASSWORD', 'ID', 'runtime', 'heap', 'interval', 'action', 'realtime', 'rtfreq']);

/** WU and Ecowitt mark a missing sensor with -9999; an empty string is no value either. */
export function presentValue(fields: UploadFields, key: string): unknown {
  const value = fields[key];
  if (value === undefined || value === null || value === '' || value === '-9999' || value === -9999) return undefined;
  return value;
}

/** Adds every field of `keys` found in `fields`, in the station's units (imperial unless told). */
export function addValues(builder: ReadingBuilder, station: StationConfig, fields: UploadFields, keys: ValueKeys): void {
  const system = station.units === 'metric' ? 'metric' : 'imperial';
  const overrides = typeof station.units === 'object' ? station.units : {};
  for (const [field, candidates, kind] of keys) {
    const key = candidates.find((candidate) => presentValue(fields, candidate) !== undefined);
    if (key !== undefined) builder.add(field, fields[key], overrides[field] ?? UNITS[system][kind], key);
  }
}

/** Adds the first counter of `counters` present, keyed by format and field (a new key starts a new baseline). */
export function addCounter(builder: ReadingBuilder, station: StationConfig, fields: UploadFields, counters: readonly string[]): void {
  const key = counters.find((candidate) => presentValue(fields, candidate) !== undefined);
  if (key === undefined) return;
  const unit = typeof station.units === 'object' ? station.units.rain_total : undefined;
  builder.addRainCounter(`${station.format}/${key}`, fields[key], unit ?? UNITS[station.units === 'metric' ? 'metric' : 'imperial'].depth, key);
}

/**
 * `dateutc`: "YYYY-MM-DD HH:MM:SS" in UTC, or "now" (the WU protocol's "use the arrival time").
 * Undefined time means arrival; `false` means the field is there but is not a time.
 */
export function uploadTime(fields: UploadFields): number | undefined | false {
  const raw = fields.dateutc;
  if (raw === undefined || (typeof raw === 'string' && raw.trim().toLowerCase() === 'now')) return undefined;
  return parseTimestamp(raw, 'UTC') ?? false;
}

/** The outcome once values are collected: a reading, or why there is none. */
export function finish(builder: ReadingBuilder, fields: UploadFields): ParseOutcome {
  const time = uploadTime(fields);
  if (time === false) return { kind: 'rejected', reason: 'dateutc is not a UTC time "YYYY-MM-DD HH:MM:SS" or "now"' };
  if (time !== undefined) builder.payloadTimeMs = time;
  if (!builder.hasData()) return { kind: 'rejected', reason: builder.dropped.join('; ') || 'no weather field found' };
  return { kind: 'reading', reading: builder.build(fingerprintOf(fields, UPLOAD_VOLATILE_KEYS)) };
}

export function parseEcowittUpload(station: StationConfig, fields: UploadFields): ParseOutcome {
  const builder = new ReadingBuilder();
  addValues(builder, station, fields, VALUE_KEYS);
  const hasBucket = [GAUGES.bucket.rate, ...GAUGES.bucket.counters].some((key) => presentValue(fields, key) !== undefined);
  const gauge = hasBucket ? GAUGES.bucket : GAUGES.piezo;
  addValues(builder, station, fields, [['precipitation_rate', [gauge.rate], 'rate']]);
  addCounter(builder, station, fields, gauge.counters);
  return finish(builder, fields);
}

/**
 * Fields of an upload relayed over MQTT as text: the form body, or the WU
 * request's query string (anything up to a "?" is dropped). A repeated key keeps its last value.
 */
export function formFields(text: string): UploadFields {
  const query = text.includes('?') ? text.slice(text.indexOf('?') + 1) : text;
  return Object.fromEntries(new URLSearchParams(query.trim()));
}
