/**
 * The projection kept between calls (src/core/forecastSlots.ts, ProjectionMemo) and the slot sums of
 * src/core/forecastProjection.ts give exactly the answers of the projection as it was before it kept
 * anything (./forecastProjectionReference.ts: every slot sorted and every window summed slot by slot):
 * for random sequences of forecasts (unsorted, duplicate ends, half-hour steps, gaps, rain with and
 * without probability, missing and non-finite values), minutes (forward, backward, a new forecast in
 * between) and readings (fields present or absent, rain now, blade water, irrigation). And the memo does
 * keep: an hour that came out the same is the previous call's object.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOUR_MS,
  MINUTE_MS,
  projectForecast,
  type ForecastHour,
  type ForecastProjectionMemo,
  type ObservedHistory,
  type ObservedMinute,
  type ProjectedHour,
} from '../../src/core/forecastProjection.js';
import { ProjectionMemo } from '../../src/core/forecastSlots.js';
import { projectForecastReference } from './forecastProjectionReference.js';

const T0 = Date.parse('2026-07-04T10:23:00Z');

const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 3 });

const hourArb = (firstEndMs: number, stepMinutes: number): fc.Arbitrary<ForecastHour[]> =>
  fc
    .array(
      fc.record({
        temperature: maybe(fc.oneof(fc.double({ min: -10, max: 35, noNaN: true }), fc.constant(Number.NaN))),
        humidity: maybe(fc.integer({ min: 20, max: 100 })),
        wind_speed: maybe(fc.double({ min: 0, max: 40, noNaN: true })),
        rain: fc.oneof(fc.constant(0), fc.constant(0), fc.double({ min: 0, max: 4, noNaN: true })),
        probability: maybe(fc.integer({ min: 0, max: 100 })),
        skip: fc.boolean(),
      }),
      { minLength: 0, maxLength: 70 },
    )
    .map((rows) =>
      rows.flatMap((row, i) => {
        if (row.skip && i % 7 === 3) return [];
        const values: ForecastHour['values'] = {};
        if (row.temperature !== undefined) values.temperature = row.temperature;
        if (row.humidity !== undefined) values.humidity = row.humidity;
        if (row.wind_speed !== undefined) values.wind_speed = row.wind_speed;
        return [
          {
            timeMs: firstEndMs + i * stepMinutes * MINUTE_MS,
            values,
            precipitationMm: row.rain,
            ...(row.probability === undefined ? {} : { precipitationProbabilityPct: row.probability }),
          },
        ];
      }),
    );

/** A forecast as a source may send it: in order or shuffled, some ends twice. */
const forecastArb = fc
  .record({
    offsetMinutes: fc.integer({ min: -90, max: 60 }),
    step: fc.constantFrom(60, 60, 30),
    shuffle: fc.boolean(),
    twice: fc.boolean(),
  })
  .chain(({ offsetMinutes, step, shuffle, twice }) =>
    hourArb(Math.ceil(T0 / HOUR_MS) * HOUR_MS + offsetMinutes * MINUTE_MS, step).map((hours) => {
      const all = twice && hours.length > 2 ? [...hours, { ...hours[1]!, values: { temperature: 99 } }] : hours;
      return shuffle ? [...all].reverse() : all;
    }),
  );

const readingArb = fc.record({
  temperature: maybe(fc.double({ min: -5, max: 30, noNaN: true })),
  precipitation_rate: maybe(fc.constantFrom(0, 0, 0, 0.4, 2.5)),
  rain_1h: maybe(fc.constantFrom(0, 0.2, 1.1)),
  rain_12h: maybe(fc.constantFrom(0, 2)),
  rain_24h: maybe(fc.constant(3)),
  rain_14d: maybe(fc.constant(20)),
  min_temp_3h: maybe(fc.constant(9)),
  min_temp_3d: maybe(fc.constant(4)),
  min_temp_14d: maybe(fc.constant(1)),
  minutes_since_rain: maybe(fc.integer({ min: 0, max: 3000 })),
  minutes_since_irrigation: maybe(fc.integer({ min: 0, max: 3000 })),
  blade_drying_minutes: maybe(fc.integer({ min: 0, max: 240 })),
});

const stepArb = fc.record({
  minutes: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.integer({ min: -30, max: 600 })),
  newForecast: fc.option(forecastArb, { nil: undefined, freq: 5 }),
  reading: readingArb,
  observedRain: fc.constantFrom(0, 0, 0, 0.2, 1),
});

function withoutUndefined(reading: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(reading).filter((entry): entry is [string, number] => entry[1] !== undefined));
}

/** Minute buckets before now: a dry history with the step's rain in the minute before now and a cold night 2 days ago. */
function history(nowMs: number, rainMm: number): ObservedMinute[] {
  const minute = Math.floor(nowMs / MINUTE_MS);
  return [
    { minute: minute - 2 * 24 * 60, rainMm: 0.4, tempMinC: 2 },
    { minute: minute - 300, rainMm: 0, tempMinC: 11 },
    { minute: minute - 1, rainMm, tempMinC: 14 },
  ];
}

/** The history's running sums as the daemon hands them over (the ObservedHistory form). */
function runningSums(rows: readonly ObservedMinute[], nowMs: number): ObservedHistory {
  const before = rows.filter((row) => row.minute * MINUTE_MS < nowMs);
  const from = (fromMs: number) => before.filter((row) => row.minute >= Math.ceil(fromMs / MINUTE_MS));
  return {
    rainSince: (fromMs) => from(fromMs).reduceRight((sum, row) => sum + Math.max(0, row.rainMm), 0),
    minTempSince: (fromMs) => from(fromMs).reduceRight((min, row) => Math.min(min, row.tempMinC ?? Infinity), Infinity),
  };
}

describe('the projection kept between calls', () => {
  it('equals the projection computed afresh for random sequences of forecasts, minutes and readings', () => {
    fc.assert(
      fc.property(forecastArb, fc.array(stepArb, { minLength: 1, maxLength: 25 }), fc.boolean(), (first, steps, asSums) => {
        const memo: ForecastProjectionMemo = new ProjectionMemo();
        let hours = first;
        let nowMs = T0;
        for (const step of steps) {
          nowMs += step.minutes * MINUTE_MS + (step.minutes === 0 ? 7_000 : 0);
          if (step.newForecast) hours = step.newForecast;
          const rows = history(nowMs, step.observedRain);
          const observed = asSums ? runningSums(rows, nowMs) : rows;
          const request = { nowMs, current: withoutUndefined(step.reading), observed, hours };
          const expected = projectForecastReference(request);
          expect(projectForecast(request, memo)).toStrictEqual(expected);
          expect(projectForecast(request)).toStrictEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('hands back the previous object for every hour that came out the same, and a new one for a changed hour', () => {
    const hours: ForecastHour[] = Array.from({ length: 60 }, (_, i) => ({
      timeMs: Math.ceil(T0 / HOUR_MS) * HOUR_MS + i * HOUR_MS,
      values: { temperature: 18 + (i % 5), humidity: 60, wind_speed: 6 },
      precipitationMm: i === 30 ? 2 : 0,
    }));
    const memo: ForecastProjectionMemo = new ProjectionMemo();
    const current = { temperature: 19, precipitation_rate: 0, rain_1h: 0, rain_24h: 0, minutes_since_rain: 500 };
    const before: ProjectedHour[] = projectForecast({ nowMs: T0, current, observed: [], hours }, memo);
    // A minute later the station's count is a minute on: the first hour (it starts now) and the blade water of the
    // first hours differ; from the hour the blades are dry on, every hour is the one kept.
    const later = { ...current, minutes_since_rain: 501 };
    const after = projectForecast({ nowMs: T0 + MINUTE_MS, current: later, observed: [], hours }, memo);
    expect(after).toStrictEqual(projectForecastReference({ nowMs: T0 + MINUTE_MS, current: later, observed: [], hours }));
    expect(after[0]).not.toBe(before[0]);
    after.forEach((hour, i) => expect(hour === before[i]).toBe(isDeepStrictEqual(hour, before[i])));
    expect(after.filter((hour, i) => hour === before[i]).length).toBeGreaterThanOrEqual(after.length - 4);
    // Rain now: every hour's windows and blade water change, so no hour is taken over.
    const wet = { ...later, precipitation_rate: 3, rain_1h: 1.5 };
    const rained = projectForecast({ nowMs: T0 + MINUTE_MS, current: wet, observed: [], hours }, memo);
    expect(rained).toStrictEqual(projectForecastReference({ nowMs: T0 + MINUTE_MS, current: wet, observed: [], hours }));
    expect(rained.filter((hour, i) => hour === after[i]).length).toBeLessThan(rained.length);
    // Another forecast (a new array, same hours but drier): sorted again, nothing kept from the old one.
    const drier = hours.map((hour) => ({ ...hour, precipitationMm: 0 }));
    const other = projectForecast({ nowMs: T0 + MINUTE_MS, current: wet, observed: [], hours: drier }, memo);
    expect(other).toStrictEqual(projectForecastReference({ nowMs: T0 + MINUTE_MS, current: wet, observed: [], hours: drier }));
  });
});
