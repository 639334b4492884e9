/**
 * weewx-mqtt loop/archive packets: every value a string, keys carry the unit
 * label (`outTemp_C`, `rain_cm`, `rainRate_cm_per_hour`); without labels the
 * unit system follows `usUnits` (1 US, 16 METRIC with rain in cm, 17
 * METRICWX). `rain` is the amount since the previous packet.
 */
import { ReadingBuilder, fingerprintOf, parseJsonObject } from '../builder.js';
import { parseTimestamp } from '../time.js';
import { toNumber } from '../units.js';
import type { CurrentField, ParseOutcome, StationConfig } from '../types.js';
import { matchesFilter } from './context.js';

type Kind = 'temperature' | 'speed' | 'depth' | 'rate' | '%' | 'W/m2';

const SYSTEM_UNITS: Record<number, Record<Kind, string>> = {
  1: { temperature: 'F', speed: 'mph', depth: 'in', rate: 'in/h', '%': '%', 'W/m2': 'W/m2' },
  16: { temperature: 'C', speed: 'km/h', depth: 'cm', rate: 'cm/h', '%': '%', 'W/m2': 'W/m2' },
  17: { temperature: 'C', speed: 'm/s', depth: 'mm', rate: 'mm/h', '%': '%', 'W/m2': 'W/m2' },
};

/** weewx-mqtt unit labels (UNIT_REDUCTIONS) → our unit names. */
const LABELS: Record<string, string> = {
  C: 'C',
  F: 'F',
  kph: 'km/h',
  mps: 'm/s',
  mph: 'mph',
  knot: 'kn',
  cm: 'cm',
  mm: 'mm',
  in: 'in',
  cm_per_hour: 'cm/h',
  mm_per_hour: 'mm/h',
  inch_per_hour: 'in/h',
  in_per_hour: 'in/h',
  Wpm2: 'W/m2',
  percent: '%',
};

/** soilMoist is in centibar in WeeWX, not %, so it is not mapped. */
const OBSERVATIONS: ReadonlyArray<[CurrentField, string, Kind]> = [
  ['temperature', 'outTemp', 'temperature'],
  ['humidity', 'outHumidity', '%'],
  ['wind_speed', 'windSpeed', 'speed'],
  ['wind_gusts', 'windGust', 'speed'],
  ['dew_point', 'dewpoint', 'temperature'],
  ['solar', 'radiation', 'W/m2'],
  ['precipitation_rate', 'rainRate', 'rate'],
  ['soil_temperature', 'soilTemp1', 'temperature'],
];

const VOLATILE_KEYS = new Set<string>();

/** Finds `base` or `base_<label>`; returns the value and the unit implied by the label. */
function lookup(packet: Record<string, unknown>, base: string): { key: string; value: unknown; unit?: string } | undefined {
  if (packet[base] !== undefined) return { key: base, value: packet[base] };
  for (const key of Object.keys(packet)) {
    if (!key.startsWith(`${base}_`)) continue;
    const unit = LABELS[key.slice(base.length + 1)];
    if (unit !== undefined) return { key, value: packet[key], unit };
  }
  return undefined;
}

export function parseWeewx(station: StationConfig, payload: string): ParseOutcome {
  const packet = parseJsonObject(payload);
  if (!packet) return { kind: 'rejected', reason: 'not a JSON object' };
  if (!matchesFilter(packet, station.match)) return { kind: 'ignored', reason: 'does not match the station filter' };
  const usUnits = toNumber(packet.usUnits);
  const configured = station.units === 'imperial' ? 1 : station.units === 'metric' ? 16 : undefined;
  const system = SYSTEM_UNITS[usUnits ?? configured ?? 16] ?? SYSTEM_UNITS[16]!;
  const overrides = typeof station.units === 'object' ? station.units : {};

  const builder = new ReadingBuilder();
  for (const [field, base, kind] of OBSERVATIONS) {
    const found = lookup(packet, base);
    if (found) builder.add(field, found.value, found.unit ?? overrides[field] ?? system[kind], found.key);
  }
  const rain = lookup(packet, 'rain');
  if (rain && rain.value !== null && rain.value !== 'None') {
    builder.addRainDelta(rain.value, rain.unit ?? overrides.rain_delta ?? system.depth, rain.key);
  }
  const time = parseTimestamp(packet.dateTime, 'UTC');
  if (time !== undefined) builder.payloadTimeMs = time;
  if (!builder.hasData()) return { kind: 'rejected', reason: builder.dropped.join('; ') || 'no weather field found' };
  return { kind: 'reading', reading: builder.build(fingerprintOf(packet, VOLATILE_KEYS)) };
}
