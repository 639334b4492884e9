/** Properties of model 1.2: the one drying model (src/core/drying.ts) and the time behaviour of the index. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERCEPTION_STORAGE_MM, dryingMinutesFor, type DryingWeather } from '../../src/core/drying.js';
import { calculate } from '../../src/core/index.js';
import type { CalculationContext } from '../../src/core/index.js';

const NUM_RUNS = 300;

const weather: fc.Arbitrary<DryingWeather> = fc.record({
  temperatureC: fc.double({ min: -5, max: 40, noNaN: true }),
  humidityPct: fc.double({ min: 5, max: 100, noNaN: true }),
  windKmh: fc.double({ min: 0, max: 80, noNaN: true }),
  solarWm2: fc.double({ min: 0, max: 1100, noNaN: true }),
});
const more = fc.double({ min: 0, max: 500, noNaN: true });
const minutes = (w: DryingWeather) => dryingMinutesFor(INTERCEPTION_STORAGE_MM, w);
/** Rounding of floating point: "never longer" up to a millionth of a minute. */
const EPS = 1e-6;

describe('drying time (model 1.2)', () => {
  it('more sun never lengthens drying', () => {
    fc.assert(
      fc.property(weather, more, (w, extra) => {
        expect(minutes({ ...w, solarWm2: (w.solarWm2 ?? 0) + extra })).toBeLessThanOrEqual(minutes(w) + EPS);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('more wind never lengthens drying', () => {
    fc.assert(
      fc.property(weather, more, (w, extra) => {
        expect(minutes({ ...w, windKmh: (w.windKmh ?? 0) + extra / 10 })).toBeLessThanOrEqual(minutes(w) + EPS);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('a larger vapour pressure deficit (drier air at the same temperature) never lengthens drying', () => {
    fc.assert(
      fc.property(weather, fc.double({ min: 0, max: 1, noNaN: true }), (w, share) => {
        const drier = (w.humidityPct ?? 100) * share;
        expect(minutes({ ...w, humidityPct: drier })).toBeLessThanOrEqual(minutes(w) + EPS);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('night drying is slow: no sun, humid, light wind takes more than 6 hours for a full film', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 25, noNaN: true }),
        fc.double({ min: 85, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (temperatureC, humidityPct, windKmh) => {
          expect(minutes({ temperatureC, humidityPct, windKmh, solarWm2: 0 })).toBeGreaterThan(360);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('the index at constant weather (model 1.2)', () => {
  const input = fc.record({
    temperature: fc.double({ min: 1, max: 35, noNaN: true }),
    precipitation_rate: fc.constant(0),
    humidity: fc.double({ min: 10, max: 100, noNaN: true }),
    wind_speed: fc.double({ min: 0, max: 60, noNaN: true }),
    solar: fc.double({ min: 0, max: 1000, noNaN: true }),
    rain_12h: fc.double({ min: 0, max: 40, noNaN: true }),
    rain_24h: fc.double({ min: 40, max: 80, noNaN: true }),
    rain_14d: fc.double({ min: 80, max: 150, noNaN: true }),
  });
  const context: CalculationContext = { nowMs: Date.parse('2026-06-10T12:00:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' };
  const index = (values: Record<string, number>): number => {
    const outcome = calculate(values, context);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.result.index_score;
  };

  it('never falls as the minutes since rain grow', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), (values, since, later) => {
        expect(index({ ...values, minutes_since_rain: since + later })).toBeGreaterThanOrEqual(
          index({ ...values, minutes_since_rain: since }),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never falls as the minutes since irrigation grow', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), (values, since, later) => {
        const base = { ...values, minutes_since_rain: 5000 };
        expect(index({ ...base, minutes_since_irrigation: since + later })).toBeGreaterThanOrEqual(
          index({ ...base, minutes_since_irrigation: since }),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
