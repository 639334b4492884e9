/**
 * A flat (or dotted-path) JSON object with a configured map from our field
 * names to payload keys and units, and an optional timestamp key.
 */
import { ReadingBuilder, fingerprintOf, parseJsonObject } from '../builder.js';
import { FIELD_QUANTITY } from '../builder.js';
import { parseTimestamp } from '../time.js';
import { CURRENT_FIELDS, type CurrentField, type JsonFieldMapping, type ParseOutcome, type StationConfig } from '../types.js';
import { matchesFilter, type IngestContext } from './context.js';

/** The API's unit of each quantity: what a value without a configured unit is taken to be. */
export const SPEC_UNITS = { temperature: 'C', rate: 'mm/h', speed: 'km/h', percent: '%', irradiance: 'W/m2', depth: 'mm' } as const;

function valueAt(object: Record<string, unknown>, path: string): unknown {
  if (path in object) return object[path];
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function normaliseMapping(mapping: string | JsonFieldMapping): JsonFieldMapping {
  return typeof mapping === 'string' ? { key: mapping } : mapping;
}

export function parseJsonFormat(station: StationConfig, payload: string, context: IngestContext): ParseOutcome {
  const data = parseJsonObject(payload);
  if (!data) return { kind: 'rejected', reason: 'not a JSON object' };
  if (!matchesFilter(data, station.match)) return { kind: 'ignored', reason: 'does not match the station filter' };
  const overrides = typeof station.units === 'object' ? station.units : {};
  const builder = new ReadingBuilder();
  for (const [field, raw] of Object.entries(station.fields ?? {})) {
    const mapping = normaliseMapping(raw);
    const value = valueAt(data, mapping.key);
    if (value === undefined) continue;
    if (field === 'rain_total') {
      builder.addRainCounter(`json/${mapping.key}`, value, mapping.unit ?? overrides.rain_total ?? 'mm', mapping.key);
    } else if (field === 'rain_delta') {
      builder.addRainDelta(value, mapping.unit ?? overrides.rain_delta ?? 'mm', mapping.key);
    } else if ((CURRENT_FIELDS as readonly string[]).includes(field)) {
      const current = field as CurrentField;
      builder.add(current, value, mapping.unit ?? overrides[current] ?? SPEC_UNITS[FIELD_QUANTITY[current]], mapping.key);
    }
  }
  if (station.timestampKey !== undefined) {
    const time = parseTimestamp(valueAt(data, station.timestampKey), context.timeZone);
    if (time === undefined) return { kind: 'rejected', reason: `timestamp key "${station.timestampKey}" missing or not a time` };
    builder.payloadTimeMs = time;
  }
  if (!builder.hasData()) return { kind: 'rejected', reason: builder.dropped.join('; ') || 'none of the configured keys present' };
  return { kind: 'reading', reading: builder.build(fingerprintOf(data, new Set())) };
}
