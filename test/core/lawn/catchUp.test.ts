/**
 * Gaps in the lawn memory (pure): the catch-up over the history's minutes after a snapshot equals the
 * uninterrupted run, and time without readings leaves the blades unknown, drains the soil and adds no
 * ET or degree-days (docs/model.md, "Gaps and restarts").
 */
import { describe, expect, it } from 'vitest';
import { BLADE_STORAGE_MM } from '../../../src/core/lawn/blades.js';
import { catchUpMemory, type HistoryMinute } from '../../../src/core/lawn/catchUp.js';
import { referenceEtMmPerHour, type EtWeather } from '../../../src/core/lawn/evaporation.js';
import { initialLawnMemory, MAX_WEATHER_CARRY_MS, stepLawnMemory, type LawnMemoryState } from '../../../src/core/lawn/memory.js';
import { soilProfile, stepSoil } from '../../../src/core/lawn/soilBucket.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const loam = soilProfile('loam', 'cool_season');
const T0 = Date.parse('2026-06-15T08:00:00Z');
const air = (temperatureC: number): EtWeather => ({ temperatureC, humidityPct: 70, windKmh: 8, solarWm2: 400 });

/** One reading every 10 min: temperature rising, 3 mm of rain at 08:50. */
function readings(count: number): Array<{ atMs: number; rainMm: number; weather: EtWeather }> {
  return Array.from({ length: count }, (_, i) => ({ atMs: T0 + i * 10 * MIN, rainMm: i === 5 ? 3 : 0, weather: air(14 + i * 0.5) }));
}

function run(state: LawnMemoryState, list: ReturnType<typeof readings>): LawnMemoryState {
  return list.reduce((memory, r) => stepLawnMemory(memory, { toMs: r.atMs, rainMm: r.rainMm, weather: r.weather }, loam), state);
}

describe('catch-up from the history after a snapshot', () => {
  it('equals the uninterrupted run when humidity, wind and sun did not change', () => {
    const all = readings(12);
    const uninterrupted = run(initialLawnMemory(loam), all);
    const snapshot = run(initialLawnMemory(loam), all.slice(0, 4));
    const minutes: HistoryMinute[] = all.map((r) => ({
      minute: r.atMs / MIN,
      rainMm: r.rainMm,
      rainObserved: true,
      tempMinC: r.weather.temperatureC,
    }));
    expect(catchUpMemory(snapshot, minutes, loam)).toEqual(uninterrupted);
  });

  it('skips minutes up to the snapshot and minutes without a reading', () => {
    const snapshot = run(initialLawnMemory(loam), readings(4));
    const empty: HistoryMinute = { minute: snapshot.atMs! / MIN + 1, rainMm: 0, rainObserved: false, tempMinC: null };
    const old: HistoryMinute = { minute: snapshot.atMs! / MIN, rainMm: 5, rainObserved: true, tempMinC: 3 };
    expect(catchUpMemory(snapshot, [old, empty], loam)).toBe(snapshot);
    expect(catchUpMemory(initialLawnMemory(loam), [empty], loam)).toEqual(initialLawnMemory(loam));
  });
});

describe('time without readings', () => {
  const wet = (): LawnMemoryState => run(initialLawnMemory(loam), readings(6)); // 3 mm at 08:50: blades full
  const sixHoursLater = (state: LawnMemoryState) =>
    stepLawnMemory(state, { toMs: state.atMs! + 6 * HOUR, rainMm: 0, weather: air(20) }, loam);

  it('leaves the blades unknown at full storage, ends the wet spell, adds no degree-days after 30 min', () => {
    const before = wet();
    const after = sixHoursLater(before);
    expect(after).toMatchObject({ bladesUnknown: true, blades: { waterMm: BLADE_STORAGE_MM, drySinceMs: null }, wetSpellStartMs: null });
    // Degree-days only for the 30 min the last weather is carried: (16.5 − 5)·0.5/24.
    expect(after.gddTotal - before.gddTotal).toBeCloseTo(((16.5 - 5) * 0.5) / 24, 9);
  });

  it('drains the soil over the whole gap but takes ET only for the carried 30 min', () => {
    const before = wet();
    expect(before.soilPct!).toBeGreaterThan(loam.fieldCapacityPct); // 3 mm on field capacity: draining
    const carried = stepSoil(before.soilPct!, loam, 0, referenceEtMmPerHour(before.weather!), 0.5);
    const expected = stepSoil(carried, loam, 0, undefined, 5.5);
    expect(sixHoursLater(before).soilPct).toBeCloseTo(expected, 12);
    // Before gaps were modelled the bucket froze after 30 min: here it has drained on.
    expect(expected).toBeLessThan(carried);
  });

  it('a gap of exactly 30 min is no gap; the blades are known again once the upper bound has dried', () => {
    const before = wet();
    const noGap = stepLawnMemory(before, { toMs: before.atMs! + MAX_WEATHER_CARRY_MS, rainMm: 0, weather: air(20) }, loam);
    expect(noGap.bladesUnknown).toBe(false);
    let memory = sixHoursLater(before);
    const sunny: EtWeather = { temperatureC: 22, humidityPct: 50, windKmh: 10, solarWm2: 700 };
    for (let i = 1; memory.bladesUnknown && i < 60; i++)
      memory = stepLawnMemory(memory, { toMs: memory.atMs! + 10 * MIN, rainMm: 0, weather: sunny }, loam);
    expect(memory).toMatchObject({ bladesUnknown: false, blades: { waterMm: 0 } });
    expect(memory.blades.drySinceMs).not.toBeNull();
  });
});
