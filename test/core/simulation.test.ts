/**
 * Time simulations (model 1.1): the index stepped hour by hour through a rain event and a
 * dew morning. The weather other than rain is held constant in the rain event, so any dip would come
 * from the model's handling of time, not from the weather.
 */
import { describe, expect, it } from 'vitest';
import type { SoilType } from '../../src/core/index.js';
import { contextAt, resultFor } from './helpers.js';

const HOUR_MS = 3_600_000;
/** 8 mm at 4 mm/h from 10:00 to 12:00 local (CEST) on a June day. */
const RAIN_STOP_MS = Date.parse('2026-06-10T10:00:00Z');
const RAIN_MM_H = 4;
const RAIN_MIN = 120;

/** Rain (mm) that fell in the `windowMin` minutes up to `minutesAfterStop`. */
function rainIn(minutesAfterStop: number, windowMin: number): number {
  const overlap = Math.min(0, minutesAfterStop) - Math.max(-RAIN_MIN, minutesAfterStop - windowMin);
  return (Math.max(0, overlap) * RAIN_MM_H) / 60;
}

function rainEventIndex(soilType: SoilType, hour: number): number {
  const minutes = hour * 60;
  const input = {
    temperature: 18,
    humidity: 65,
    wind_speed: 8,
    wind_gusts: 15,
    solar: 250,
    soil_temperature: 15,
    min_temp_3h: 14,
    min_temp_3d: 10,
    min_temp_14d: 6,
    precipitation_rate: minutes < 0 ? RAIN_MM_H : 0,
    rain_1h: rainIn(minutes, 60),
    rain_12h: rainIn(minutes, 720),
    rain_24h: rainIn(minutes, 1440),
    rain_14d: 14,
    minutes_since_rain: Math.max(0, minutes),
  };
  return resultFor(input, contextAt(RAIN_STOP_MS + hour * HOUR_MS, { lawn: { soilType } })).index_score;
}

describe('8 mm of rain stepped hourly for 48 h', () => {
  const hours = Array.from({ length: 49 }, (_, index) => index - 1); // from the last hour of rain to 47 h after it
  const series = Object.fromEntries(
    (['sand', 'loam', 'clay'] as const).map((soil) => [soil, hours.map((hour) => rainEventIndex(soil, hour))]),
  );

  it.each(['sand', 'loam', 'clay'] as const)('the index on %s never falls after the rain stops', (soil) => {
    const after = series[soil]?.slice(1) ?? [];
    expect(after.length).toBe(48);
    for (let index = 1; index < after.length; index += 1) expect(after[index]).toBeGreaterThanOrEqual(after[index - 1] ?? 101);
    expect(series[soil]?.[0]).toBeLessThan(40); // raining: BLOCK
    expect(after[after.length - 1]).toBeGreaterThanOrEqual(70); // two days later: OK
  });

  it('sand recovers before loam, loam before clay', () => {
    const firstOk = (soil: SoilType) => hours.find((hour, index) => hour >= 0 && (series[soil]?.[index] ?? 0) >= 70);
    const [sand, loam, clay] = [firstOk('sand'), firstOk('loam'), firstOk('clay')];
    // Model 1.2: the blades dry in 250 min at 0,17 mm/h, so sand waits an hour longer (1.1: 4).
    expect(sand).toBe(5);
    expect(loam).toBe(5);
    expect(clay).toBe(7);
  });
});

describe('a dew morning: RH 98 % at 06:00 falling to 60 % by noon', () => {
  it('the index never falls while the dew dries off', () => {
    const indices = Array.from({ length: 7 }, (_, step) => {
      const input = {
        temperature: 10 + (10 * step) / 6,
        humidity: 98 - (38 * step) / 6,
        wind_speed: 3 + step,
        solar: 100 * step,
        precipitation_rate: 0,
        rain_24h: 0,
        minutes_since_rain: 3000,
        soil_temperature: 12,
      };
      return resultFor(input, contextAt(Date.parse('2026-05-20T04:00:00Z') + step * HOUR_MS)).index_score;
    });
    expect(indices[0]).toBeLessThan(40); // dew at 06:00: BLOCK
    for (let step = 1; step < indices.length; step += 1) expect(indices[step]).toBeGreaterThanOrEqual(indices[step - 1] ?? 101);
    expect(indices[6]).toBeGreaterThanOrEqual(70); // noon: OK
  });
});
