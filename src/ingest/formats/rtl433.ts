/**
 * rtl_433 JSON events (`-F mqtt` events topic or `-F json` lines). Units come
 * from key suffixes; old field names (rainfall_mm, wind_speed_ms, ...) are
 * accepted. `rain_*` is a lifetime counter per device.
 */
import { ReadingBuilder, fingerprintOf, parseJsonObject } from '../builder.js';
import { parseTimestamp } from '../time.js';
import type { CurrentField, ParseOutcome, StationConfig } from '../types.js';
import type { IngestContext } from './context.js';
import { matchesFilter } from './context.js';

/** Field → candidate keys with their unit, in order of preference. */
const VALUE_KEYS: ReadonlyArray<[CurrentField, ReadonlyArray<[string, string]>]> = [
  [
    'temperature',
    [
      ['temperature_C', 'C'],
      ['temperature_F', 'F'],
      ['temperature_1_C', 'C'],
    ],
  ],
  [
    'humidity',
    [
      ['humidity', '%'],
      ['humidity_1', '%'],
    ],
  ],
  [
    'wind_speed',
    [
      ['wind_avg_km_h', 'km/h'],
      ['wind_avg_m_s', 'm/s'],
      ['wind_avg_mi_h', 'mph'],
      ['wind_speed_km_h', 'km/h'],
      ['wind_speed_m_s', 'm/s'],
      ['wind_speed_ms', 'm/s'],
      ['wind_speed_mi_h', 'mph'],
    ],
  ],
  [
    'wind_gusts',
    [
      ['wind_max_km_h', 'km/h'],
      ['wind_max_m_s', 'm/s'],
      ['wind_max_mi_h', 'mph'],
      ['gust_speed_km_h', 'km/h'],
      ['gust_speed_m_s', 'm/s'],
      ['gust_speed_ms', 'm/s'],
      ['gust_speed_mi_h', 'mph'],
    ],
  ],
  [
    'precipitation_rate',
    [
      ['rain_rate_mm_h', 'mm/h'],
      ['rain_rate_in_h', 'in/h'],
    ],
  ],
  [
    'solar',
    [
      ['light_lux', 'lx'],
      ['lux', 'lx'],
    ],
  ],
  ['soil_moisture', [['moisture', '%']]],
  [
    'dew_point',
    [
      ['dewpoint_C', 'C'],
      ['dewpoint_F', 'F'],
    ],
  ],
];

const RAIN_COUNTER_KEYS: ReadonlyArray<[string, string]> = [
  ['rain_mm', 'mm'],
  ['rain_in', 'in'],
  ['rainfall_mm', 'mm'],
  ['rain_total_mm', 'mm'],
];

/** Keys that differ between repeated transmissions of the same reading. */
const VOLATILE_KEYS = new Set([
  'time',
  'sequence_num',
  'seq',
  'mic',
  'raw_msg',
  'rssi',
  'snr',
  'noise',
  'freq',
  'freq1',
  'freq2',
  'mod',
  'protocol',
]);

/** The JSON object in a line, tolerating syslog prefixes and trailing garbage of real captures. */
function extractObject(payload: string): Readonly<Record<string, unknown>> | undefined {
  const start = payload.indexOf('{');
  const end = payload.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  return parseJsonObject(payload.slice(start, end + 1));
}

export function parseRtl433(station: StationConfig, payload: string, context: IngestContext): ParseOutcome {
  const event = extractObject(payload);
  if (!event) return { kind: 'rejected', reason: 'not a JSON object' };
  if (typeof event.model !== 'string') return { kind: 'rejected', reason: 'rtl_433 event without "model"' };
  if (!matchesFilter(event, station.match)) return { kind: 'ignored', reason: `${event.model} does not match the station filter` };

  const builder = new ReadingBuilder();
  for (const [field, candidates] of VALUE_KEYS) {
    for (const [key, unit] of candidates) {
      if (event[key] !== undefined) {
        builder.add(field, event[key], unit, key);
        break;
      }
    }
  }
  // rtl_433 sends model, channel and id as strings or numbers.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const device = [event.model, event.channel ?? '', event.id ?? ''].join('/');
  for (const [key, unit] of RAIN_COUNTER_KEYS) {
    if (event[key] !== undefined) {
      builder.addRainCounter(`${device}/${key}`, event[key], unit, key);
      break;
    }
  }
  const time = parseTimestamp(event.time, context.timeZone);
  if (time !== undefined) builder.payloadTimeMs = time;
  if (!builder.hasData()) {
    return builder.dropped.length > 0
      ? { kind: 'rejected', reason: builder.dropped.join('; ') }
      : { kind: 'ignored', reason: `${event.model} event carries no weather field` };
  }
  return { kind: 'reading', reading: builder.build(fingerprintOf(event, VOLATILE_KEYS)) };
}
