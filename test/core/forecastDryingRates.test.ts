/**
 * The drying rates kept between projections (src/core/forecastDrying.ts, DryingRates): every rate handed
 * back equals the one computed afresh, for random sequences of calls whose hours keep, shift or change
 * their weather (missing values, NaN, -0 and 0 among them), and the blade minutes with the memo equal those
 * without it. The projection's own property test (./forecastSlots.test.ts) compares the whole projection.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dryingRateMmH, type DryingWeather } from '../../src/core/drying.js';
import { bladeDryingMinutes, DryingRates, type DryingSlot } from '../../src/core/forecastDrying.js';

const HOUR_MS = 3_600_000;

// Few distinct values, so that weather repeats (hits) and differs in one value only (misses) often.
const value = (values: number[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
const weather: fc.Arbitrary<DryingWeather> = fc.record(
  {
    temperatureC: fc.constantFrom(-3, 0, -0, 8.5, 15, 24.25, Number.NaN),
    humidityPct: value([40, 75.5, 99, Number.NaN]),
    dewPointC: value([-2, 4.5, 12]),
    windKmh: value([0, -0, 3.6, 18]),
    solarWm2: value([0, 120, 640.5]),
  },
  { requiredKeys: ['temperatureC'] },
);

/** One call: the first hour's end (whole hours) and each hour's weather. */
const call = fc.record({ firstHour: fc.integer({ min: 0, max: 4 }), hours: fc.array(weather, { minLength: 0, maxLength: 12 }) });

describe('the drying rates kept between projections', () => {
  it('hands back the rate computed afresh for every hour of random sequences of calls', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 12 }), (calls) => {
        const rates = new DryingRates();
        for (const { firstHour, hours } of calls) {
          rates.begin();
          hours.forEach((w, i) => {
            const fresh = dryingRateMmH(w);
            // A copy: the memo must compare values, not recognise an object.
            expect(Object.is(rates.rateAt((firstHour + i) * HOUR_MS, { ...w }), fresh)).toBe(true);
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same blade minutes as without it', () => {
    const slotOf = (startHour: number, w: DryingWeather, rainMm: number): DryingSlot => ({
      startMs: startHour * HOUR_MS,
      endMs: (startHour + 1) * HOUR_MS,
      input: { temperature: w.temperatureC, humidity: w.humidityPct, dew_point: w.dewPointC, wind_speed: w.windKmh, solar: w.solarWm2 },
      expectedRainMm: rainMm,
    });
    fc.assert(
      fc.property(
        fc.array(fc.record({ call, rain: fc.array(fc.constantFrom(0, 0, 0.4, 2.5), { minLength: 12, maxLength: 12 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 180 }),
        (calls, bladeMinutes) => {
          const rates = new DryingRates();
          for (const { call: c, rain } of calls) {
            const slots = c.hours.map((w, i) => slotOf(c.firstHour + i, w, rain[i]!));
            const current = { temperature: 12, humidity: 80, blade_drying_minutes: bladeMinutes };
            expect(bladeDryingMinutes(slots, current, rates)).toStrictEqual(bladeDryingMinutes(slots, current));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
