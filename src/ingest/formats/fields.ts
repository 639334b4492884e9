/**
 * One topic per field, each payload a plain number. The field is the topic's
 * last level (`garden/temperature`) or comes from the station's explicit
 * topic → field map.
 */
import { FIELD_QUANTITY, ReadingBuilder } from '../builder.js';
import { CURRENT_FIELDS, type CurrentField, type ParseOutcome, type StationConfig } from '../types.js';
import { SPEC_UNITS, normaliseMapping } from './json.js';

export function fieldForTopic(station: StationConfig, topic: string): string | undefined {
  if (station.fields) {
    const mapped = Object.hasOwn(station.fields, topic) ? station.fields[topic] : undefined;
    return mapped === undefined ? undefined : normaliseMapping(mapped).key;
  }
  const levels = topic.split('/');
  return levels[levels.length - 1];
}

export function parseFieldsFormat(station: StationConfig, topic: string, payload: string): ParseOutcome {
  const field = fieldForTopic(station, topic);
  if (field === undefined) return { kind: 'ignored', reason: `topic ${topic} is not mapped to a field` };
  const overrides = typeof station.units === 'object' ? station.units : {};
  const mapped = station.fields && Object.hasOwn(station.fields, topic) ? station.fields[topic] : undefined;
  const mappedUnit = mapped === undefined ? undefined : normaliseMapping(mapped).unit;
  const text = payload.trim();
  const builder = new ReadingBuilder();
  if (field === 'rain_total') {
    builder.addRainCounter(`fields/${topic}`, text, mappedUnit ?? overrides.rain_total ?? 'mm', topic);
  } else if (field === 'rain_delta') {
    builder.addRainDelta(text, mappedUnit ?? overrides.rain_delta ?? 'mm', topic);
  } else if ((CURRENT_FIELDS as readonly string[]).includes(field)) {
    const current = field as CurrentField;
    builder.add(current, text, mappedUnit ?? overrides[current] ?? SPEC_UNITS[FIELD_QUANTITY[current]], topic);
  } else {
    return { kind: 'ignored', reason: `"${field}" is not a field we use` };
  }
  if (!builder.hasData()) return { kind: 'rejected', reason: builder.dropped.join('; ') };
  return { kind: 'reading', reading: builder.build(`${topic}=${text}`) };
}
