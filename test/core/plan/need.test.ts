/** The need (src/core/plan/need.ts), the debt (debt.ts) and the plan's week (week.ts). */
import { describe, expect, it } from 'vitest';
import { initialLawnMemory, stepLawnMemory } from '../../../src/core/lawn/memory.js';
import { soilProfile } from '../../../src/core/lawn/soilBucket.js';
import { mowingDebt } from '../../../src/core/plan/debt.js';
import { DEFAULT_MINUTES_PER_FULL_CUT, degreeDaysPerDay, lawnNeed, mowerCapacity } from '../../../src/core/plan/need.js';
import { weekSpan } from '../../../src/core/plan/week.js';
import type { LawnNeed } from '../../../src/core/plan/types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Wednesday 3 June 2026 12:00 CEST. */
const NOW = Date.UTC(2026, 5, 3, 10, 0);

describe('mowerCapacity', () => {
  it('takes the configured area and capacity first, rounded up to whole minutes', () => {
    expect(mowerCapacity({ areaM2: 600, capacityM2PerHour: 100, completedFullCutMinutes: [90] })).toEqual({
      minutesPerFullCut: 360,
      source: 'area',
    });
    expect(mowerCapacity({ areaM2: 500, capacityM2PerHour: 70 })).toEqual({ minutesPerFullCut: 429, source: 'area' });
  });

  it('else the median of the newest five completed full cuts in the ledger', () => {
    expect(mowerCapacity({ completedFullCutMinutes: [1000, 100, 300, 110, 120, 90] })).toEqual({
      minutesPerFullCut: 110,
      source: 'ledger',
    });
    expect(mowerCapacity({ completedFullCutMinutes: [100, 131] })).toEqual({ minutesPerFullCut: 116, source: 'ledger' });
    expect(mowerCapacity({ areaM2: 600, completedFullCutMinutes: [0, Number.NaN, 80] })).toEqual({
      minutesPerFullCut: 80,
      source: 'ledger',
    });
  });

  it('else the documented default', () => {
    expect(mowerCapacity({})).toEqual({ minutesPerFullCut: DEFAULT_MINUTES_PER_FULL_CUT, source: 'default' });
    expect(mowerCapacity({ areaM2: 0, capacityM2PerHour: 50, completedFullCutMinutes: [] }).source).toBe('default');
  });
});

describe('lawnNeed', () => {
  const capacity = { minutesPerFullCut: 360, source: 'area' as const };

  it('grows 0.4 mm per degree-day, due at 1.5 × the target, and needs the week’s cuts at the current rate', () => {
    // 10 degree-days a day: 4 mm a day; 30 degree-days since the cut: 12 mm grown.
    const need = lawnNeed({
      nowMs: NOW,
      timeZone: 'Europe/Berlin',
      targetHeightMm: 40,
      growthFactor: 1,
      gddSinceCut: 30,
      degreeDaysPerDay: 10,
      capacity,
    });
    expect(need.growthMmPerDay).toBe(4);
    expect(need.heightMm).toBe(52);
    // 60 mm is due: 8 mm more at 4 mm a day = 2 days.
    expect(need.cutDueAtMs).toBe(NOW + 2 * DAY_MS);
    // 28 mm a week / 20 mm per cut = 1.4 cuts × 360 min.
    expect(need.runtimeNeededMinutesThisWeek).toBe(504);
    expect(need.capacitySource).toBe('area');
  });

  it('is due now past 1.5 × the target, and never due without growth', () => {
    expect(
      lawnNeed({ nowMs: NOW, timeZone: 'UTC', targetHeightMm: 40, growthFactor: 1, gddSinceCut: 60, degreeDaysPerDay: 0, capacity })
        .cutDueAtMs,
    ).toBe(NOW);
    const dormant = lawnNeed({
      nowMs: NOW,
      timeZone: 'UTC',
      targetHeightMm: 40,
      growthFactor: 1,
      gddSinceCut: 10,
      degreeDaysPerDay: 0,
      capacity,
    });
    expect([dormant.cutDueAtMs, dormant.runtimeNeededMinutesThisWeek]).toEqual([null, 0]);
  });

  it('takes a lawn without a known cut as cut to the target now', () => {
    const need = lawnNeed({
      nowMs: NOW,
      timeZone: 'UTC',
      targetHeightMm: 50,
      growthFactor: 1.5,
      gddSinceCut: null,
      degreeDaysPerDay: 5,
      capacity,
    });
    expect(need.heightMm).toBe(50);
    expect(need.growthMmPerDay).toBe(3);
  });
});

describe('degreeDaysPerDay', () => {
  it('is the mean of the memory’s last three days', () => {
    const soil = soilProfile('loam', 'cool_season');
    let memory = initialLawnMemory(soil);
    const weather = { temperatureC: 15, humidityPct: 60, windKmh: 5, solarWm2: 200 };
    for (let t = NOW - 4 * DAY_MS; t <= NOW; t += 15 * 60_000) memory = stepLawnMemory(memory, { toMs: t, rainMm: 0, weather }, soil);
    // 15 °C: 10 degree-days a day.
    expect(degreeDaysPerDay(memory, NOW)).toBeCloseTo(10, 1);
    expect(degreeDaysPerDay(initialLawnMemory(soil), NOW)).toBe(0);
  });
});

describe('mowingDebt', () => {
  const need = (heightMm: number, growthMmPerDay = 4): LawnNeed => ({
    growthMmPerDay,
    heightMm,
    targetHeightMm: 40,
    cutDueAtMs: NOW,
    minutesPerFullCut: 360,
    capacitySource: 'area',
    runtimeNeededMinutesThisWeek: 504,
  });

  it('is the growth past 1.5 × the target, in mm and in the mower’s minutes', () => {
    expect(mowingDebt(need(52))).toEqual({ mm: 0, runtimeMinutes: 0, overThreshold: false });
    expect(mowingDebt(need(70))).toEqual({ mm: 10, runtimeMinutes: 180, overThreshold: false });
  });

  it('passes its threshold at three days of growth past due, or a third of the target, whichever is less', () => {
    expect(mowingDebt(need(71.9)).overThreshold).toBe(false);
    expect(mowingDebt(need(72)).overThreshold).toBe(true); // 12 mm = 3 days at 4 mm
    expect(mowingDebt(need(73.3, 10)).overThreshold).toBe(false);
    expect(mowingDebt(need(73.4, 10)).overThreshold).toBe(true); // a third of 40 mm
    expect(mowingDebt(need(60.5, 0)).overThreshold).toBe(true); // no growth: any debt is past it
  });
});

describe('weekSpan', () => {
  it('runs from local Monday 00:00 to the next, across a DST change', () => {
    expect(weekSpan(NOW, 'Europe/Berlin')).toEqual({
      startMs: Date.UTC(2026, 5, 1, 0, 0) - 2 * HOUR_MS,
      endMs: Date.UTC(2026, 5, 8, 0, 0) - 2 * HOUR_MS,
    });
    // The week of 29 March 2026 (the clocks go forward on Sunday 29 March): 167 hours.
    const spring = weekSpan(Date.UTC(2026, 2, 26, 12, 0), 'Europe/Berlin');
    expect(spring.startMs).toBe(Date.UTC(2026, 2, 22, 23, 0));
    expect(spring.endMs - spring.startMs).toBe(167 * HOUR_MS);
    expect(weekSpan(Date.UTC(2026, 5, 1, 0, 0) - 2 * HOUR_MS, 'Europe/Berlin').startMs).toBe(Date.UTC(2026, 5, 1, 0, 0) - 2 * HOUR_MS);
    expect(weekSpan(Date.UTC(2026, 5, 7, 21, 59), 'Europe/Berlin').endMs).toBe(Date.UTC(2026, 5, 7, 22, 0));
  });
});
