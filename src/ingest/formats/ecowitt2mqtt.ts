/**
 * The JSON ecowitt2mqtt publishes to `--mqtt-topic`: keys with the unit
 * suffixes stripped (tempf → temp), in its output unit system (imperial by
 * default; station `units: "metric"` for `--output-unit-system metric`).
 * Gateway rain windows reset by the gateway clock, so only a counter is used:
 * totalrain, else yearlyrain (a new year is a counter reset), else dailyrain
 * (midnight is a reset; set history.rainCounterReset to "count" for it).
 */
import { ReadingBuilder, fingerprintOf, parseJsonObject } from '../builder.js';
import type { CurrentField, ParseOutcome, StationConfig } from '../types.js';
import { matchesFilter } from './context.js';

type UnitSystem = 'metric' | 'imperial';

const UNIT_OF: Record<UnitSystem, Record<'temperature' | 'speed' | 'depth' | 'rate', string>> = {
  imperial: { temperature: 'F', speed: 'mph', depth: 'in', rate: 'in/h' },
  metric: { temperature: 'C', speed: 'km/h', depth: 'mm', rate: 'mm/h' },
};

const VALUE_KEYS: ReadonlyArray<[CurrentField, readonly string[], 'temperature' | 'speed' | 'rate' | '%' | 'W/m2']> = [
  ['temperature', ['temp', 'temp1'], 'temperature'],
  ['humidity', ['humidity', 'humidity1'], '%'],
  ['wind_speed', ['windspeed', 'windspdmph_avg10m', 'windspeed_avg10m'], 'speed'],
  ['wind_gusts', ['windgust'], 'speed'],
  ['dew_point', ['dewpoint'], 'temperature'],
  ['solar', ['solarradiation'], 'W/m2'],
  ['precipitation_rate', ['rainrate', 'rainrate_piezo'], 'rate'],
  ['soil_moisture', ['soilmoisture1', 'soilmoisture'], '%'],
  ['soil_temperature', ['tf_ch1', 'soiltemp1'], 'temperature'],
];

const COUNTER_KEYS = ['totalrain', 'yearlyrain', 'totalrain_piezo', 'yearlyrain_piezo', 'dailyrain', 'dailyrain_piezo'];
const VOLATILE_KEYS = new Set(['runtime', 'heap', 'dateutc', 'lightning_time']);

export function parseEcowitt2mqtt(station: StationConfig, payload: string): ParseOutcome {
  const data = parseJsonObject(payload);
  if (!data) return { kind: 'rejected', reason: 'not a JSON object' };
  if (!matchesFilter(data, station.match)) return { kind: 'ignored', reason: 'does not match the station filter' };
  const system: UnitSystem = station.units === 'metric' ? 'metric' : 'imperial';
  const overrides = typeof station.units === 'object' ? station.units : {};
  const builder = new ReadingBuilder();
  for (const [field, keys, kind] of VALUE_KEYS) {
    const key = keys.find((candidate) => data[candidate] !== undefined && data[candidate] !== null && data[candidate] !== -9999);
    if (key === undefined) continue;
    const unit = overrides[field] ?? (kind === '%' || kind === 'W/m2' ? kind : UNIT_OF[system][kind]);
    builder.add(field, data[key], unit, key);
  }
  const counterKey = COUNTER_KEYS.find((key) => data[key] !== undefined && data[key] !== null);
  if (counterKey !== undefined) {
    builder.addRainCounter(`ecowitt2mqtt/${counterKey}`, data[counterKey], overrides.rain_total ?? UNIT_OF[system].depth, counterKey);
  }
  if (!builder.hasData()) return { kind: 'rejected', reason: builder.dropped.join('; ') || 'no weather field found' };
  return { kind: 'reading', reading: builder.build(fingerprintOf(data, VOLATILE_KEYS)) };
}
