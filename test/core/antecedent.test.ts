import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_RECESSION_C, antecedentPrecipitationMm, olderSliceWeight } from '../../src/core/antecedent.js';
import { effectiveRainWindows } from '../../src/core/rainWindows.js';
import type { Season, SoilType } from '../../src/core/index.js';
import { checkFor, subScore } from './helpers.js';

/** Largest step of the rain check's soil sub-score when heavy rain leaves the 24-hour window. */
const MAX_EDGE_STEP_POINTS = 1;

function apiOf(values: { rain_12h?: number; rain_24h?: number; rain_14d: number; minutes_since_rain?: number }, season: Season): number {
  const input = { temperature: 18, precipitation_rate: 0, ...values };
  return antecedentPrecipitationMm(input, effectiveRainWindows(input), season) ?? Number.NaN;
}

describe('API at the 24-hour window edge (D11)', () => {
  it.each([
    // [season, measured minutes_since_rain, weight of the 12–24 h slice]
    ['summer', undefined, 0.69],
    ['summer', 60, 0.69], // recent rain says nothing about the 12–24 h slice's age: midpoint 18 h
    ['summer', 720, 0.69],
    ['summer', 1080, 0.535],
    ['summer', 1440, 0.38],
    ['summer', 99999, 0.38],
    ['winter', undefined, 0.855],
    ['spring', 1440, 0.52],
  ] as const)('in %s with minutes_since_rain %s weights the 12–24 h slice %d', (season, minutes, weight) => {
    expect(olderSliceWeight(season, minutes)).toBeCloseTo(weight, 6);
  });

  it.each([
    // [rain_12h, rain_24h, rain_14d, minutes_since_rain, API mm in summer]
    [0, 0, 50, 99999, 19], // older rain only: c·rain_14d as in 1.0
    [30, 30, 30, 120, 30], // the last 12 h count fully, as in 1.0
    [0, 30, 30, undefined, 20.7], // 1.0: 30
    [0, 30, 30, 1439, 11.4], // 1.0: 30; almost out of the window: weight almost c
    [0, 0, 30, 1441, 11.4], // just out of the window (1.0: 11.4)
  ] as const)('rain_12h %d, rain_24h %d, rain_14d %d, minutes_since_rain %s: API %d mm', (r12, r24, r14, minutes, api) => {
    expect(apiOf({ rain_12h: r12, rain_24h: r24, rain_14d: r14, minutes_since_rain: minutes }, 'summer')).toBeCloseTo(api, 1);
  });

  it('has no step when heavy rain leaves the 24-hour window (measured minutes since rain)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 5, max: 150, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.constantFrom<Season>('spring', 'summer', 'autumn', 'winter'),
        fc.constantFrom<SoilType>('sand', 'loam', 'clay'),
        (rainMm, olderMm, season, soilType) => {
          const before = { rain_1h: 0, rain_12h: 0, rain_24h: rainMm, rain_14d: rainMm + olderMm, minutes_since_rain: 1439 };
          const after = { ...before, rain_24h: 0, minutes_since_rain: 1441 };
          const soilBefore = subScore(checkFor('rain', before, season, { soilType }), 'soil');
          const soilAfter = subScore(checkFor('rain', after, season, { soilType }), 'soil');
          expect(Math.abs(soilAfter - soilBefore)).toBeLessThanOrEqual(MAX_EDGE_STEP_POINTS);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('halves the step without a measured minutes_since_rain, compared with 1.0', () => {
    for (const season of ['spring', 'summer', 'autumn', 'winter'] as const) {
      const c = API_RECESSION_C[season];
      const step = apiOf({ rain_12h: 0, rain_24h: 30, rain_14d: 30 }, season) - apiOf({ rain_12h: 0, rain_24h: 0, rain_14d: 30 }, season);
      expect(step).toBeCloseTo(((1 - c) / 2) * 30, 6); // 1.0: (1 − c) · 30
    }
  });

  it('never lowers the API with more rain in a window, never raises it with more time since rain', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom<Season>('spring', 'summer', 'autumn', 'winter'),
        (a, b, older, extra, m1, m2, season) => {
          const [r12, r24] = [a, a + b];
          const base = { rain_12h: r12, rain_24h: r24, rain_14d: r24 + older };
          const api = apiOf({ ...base, minutes_since_rain: Math.min(m1, m2) }, season);
          expect(apiOf({ ...base, minutes_since_rain: Math.max(m1, m2) }, season)).toBeLessThanOrEqual(api + 1e-9);
          expect(
            apiOf({ ...base, rain_12h: r12 + extra, rain_24h: r24 + extra, minutes_since_rain: Math.min(m1, m2) }, season),
          ).toBeGreaterThanOrEqual(api - 1e-9);
          expect(apiOf({ ...base, rain_24h: r24 + extra, minutes_since_rain: Math.min(m1, m2) }, season)).toBeGreaterThanOrEqual(
            api - 1e-9,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
