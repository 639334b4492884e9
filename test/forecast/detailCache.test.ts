import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DetailCache, type DetailKey } from '../../src/forecast/detailCache.js';

const FORECAST_A = { hours: ['a'] };
const FORECAST_B = { hours: ['b'] };
const T0 = Date.parse('2026-06-01T10:00:00Z');

/** A builder that reads everything a detail depends on (as buildForecastDetail does, at minute resolution). */
function uncached(key: DetailKey): string {
  const input = key.input ?? {};
  const fields = Object.keys(input).sort().join(',');
  return JSON.stringify([key.forecast, Math.floor(key.nowMs / 60_000), fields, input.precipitation_rate, input.rain_1h]);
}

function counting(cache: DetailCache<string>, stationId: string) {
  let builds = 0;
  return {
    get: (key: DetailKey) =>
      cache.get(stationId, key, () => {
        builds++;
        return uncached(key);
      }),
    builds: () => builds,
  };
}

describe('DetailCache', () => {
  it('gives the same answer as building every time, for any sequence of inputs', () => {
    const key = fc.record({
      forecast: fc.constantFrom(FORECAST_A, FORECAST_B, undefined),
      nowMs: fc.integer({ min: T0, max: T0 + 5 * 60_000 }),
      input: fc.option(
        fc.record(
          { temperature: fc.constantFrom(10, 11), precipitation_rate: fc.constantFrom(0, 0.4), rain_1h: fc.constantFrom(0, 1.2) },
          { requiredKeys: ['temperature'] },
        ),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('s1', 's2'), key), { maxLength: 40 }), (steps) => {
        const cache = new DetailCache<string>(2);
        for (const [station, k] of steps) expect(cache.get(station, k, () => uncached(k))).toBe(uncached(k));
      }),
    );
  });

  it('builds once for readings that change nothing the detail depends on within the minute', () => {
    const station = counting(new DetailCache<string>(1), 's1');
    for (let second = 0; second < 60; second += 16) {
      station.get({
        forecast: FORECAST_A,
        nowMs: T0 + second * 1000,
        input: { temperature: 10 + second / 10, precipitation_rate: 0, rain_1h: 0 },
      });
    }
    expect(station.builds()).toBe(1);
  });

  it('builds again on each input change: the forecast, the minute, the set of fields, the rain state', () => {
    const station = counting(new DetailCache<string>(1), 's1');
    const base: DetailKey = { forecast: FORECAST_A, nowMs: T0, input: { temperature: 10, precipitation_rate: 0, rain_1h: 0 } };
    station.get(base);
    station.get(base);
    expect(station.builds()).toBe(1);
    const changes: DetailKey[] = [
      { ...base, forecast: { ...FORECAST_A } }, // a new forecast with equal content is still new
      { ...base, nowMs: T0 + 60_000 },
      { ...base, input: { temperature: 10, precipitation_rate: 0 } },
      { ...base, input: { temperature: 10, precipitation_rate: 0.2, rain_1h: 0 } },
      { ...base, input: { temperature: 10, precipitation_rate: 0, rain_1h: 0.3 } },
      { ...base, input: undefined },
    ];
    for (const [i, changed] of changes.entries()) {
      station.get(base);
      const before = station.builds();
      expect(station.get(changed)).toBe(uncached(changed));
      expect(station.builds(), `change ${i}`).toBe(before + 1);
    }
  });

  it('forgets a station on invalidate', () => {
    const cache = new DetailCache<string>(1);
    const station = counting(cache, 's1');
    const key: DetailKey = { forecast: FORECAST_A, nowMs: T0, input: undefined };
    station.get(key);
    cache.invalidate('s1');
    station.get(key);
    expect(station.builds()).toBe(2);
  });

  it('keeps at most one detail per station and at most maxStations in all', () => {
    const cache = new DetailCache<string>(3);
    for (let minute = 0; minute < 100; minute++) {
      for (const id of ['a', 'b', 'c', 'd'])
        cache.get(id, { forecast: FORECAST_A, nowMs: T0 + minute * 60_000, input: undefined }, () => `${id}${minute}`);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect(cache.builds).toBe(400);
  });
});
