/**
 * rtl_433-style weather events (the Fineoffset-WH24 shape of the real
 * capture in test/fixtures) for N stations on rtl_433's shared events topic,
 * in time order, 16 s apart per station like a real WH24, with slowly
 * drifting values and a rising lifetime rain counter.
 */
import { seededRandom } from './inputs.js';
import type { Reading } from './mqttLoad.js';

export const RTL433_TOPIC = 'rtl_433/bench/events';
export const STATION_INTERVAL_MS = 16_000;
const MODEL = 'Fineoffset-WH24';

export interface BenchStation {
  id: string;
  name: string;
  format: 'rtl_433';
  topic: string;
  match: { model: string; id: number };
}

export function benchStations(count: number): BenchStation[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `bench${index}`,
    name: `Bench station ${index}`,
    format: 'rtl_433' as const,
    topic: RTL433_TOPIC,
    match: { model: MODEL, id: 100 + index },
  }));
}

/** rtl_433's default time format: local wall-clock time; the bench daemons run with timezone UTC. */
function rtlTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * `perStation` readings for each of `stationCount` stations, interleaved in
 * time order, the last one `endMs` (must not lie in the daemon's future).
 */
export function rtl433Readings(stationCount: number, perStation: number, endMs: number, seed = 433): Reading[] {
  const random = seededRandom(seed);
  const startMs = endMs - (perStation - 1) * STATION_INTERVAL_MS;
  const state = Array.from({ length: stationCount }, () => ({
    temperatureC: 8 + random() * 15,
    humidity: 50 + random() * 40,
    rainMm: random() * 300,
  }));
  const readings: Reading[] = [];
  for (let step = 0; step < perStation; step++) {
    for (let station = 0; station < stationCount; station++) {
      const s = state[station] as (typeof state)[number];
      s.temperatureC += (random() - 0.5) * 0.4;
      s.humidity = Math.min(99, Math.max(20, s.humidity + (random() - 0.5) * 2));
      if (random() < 0.05) s.rainMm += 0.3;
      const wind = random() * 4;
      const event = {
        time: rtlTime(startMs + step * STATION_INTERVAL_MS + station * 100),
        model: MODEL,
        id: 100 + station,
        battery_ok: 1,
        temperature_C: Math.round(s.temperatureC * 10) / 10,
        humidity: Math.round(s.humidity),
        wind_dir_deg: Math.floor(random() * 360),
        wind_avg_m_s: Math.round(wind * 100) / 100,
        wind_max_m_s: Math.round((wind + random() * 3) * 100) / 100,
        rain_mm: Math.round(s.rainMm * 10) / 10,
        uv: 1,
        uvi: 0,
        light_lux: Math.round(random() * 40_000),
        mic: 'CRC',
      };
      readings.push({ topic: RTL433_TOPIC, payload: JSON.stringify(event) });
    }
  }
  return readings;
}
