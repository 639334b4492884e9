/** Forecast hours, inputs and generators for the planner's tests (test/core/plan/). */
import fc from 'fast-check';
import type { HourIndex } from '../../../src/core/forecastWindows.js';
import type { PlanInput, PlanMower } from '../../../src/core/plan/planner.js';
import type { LawnNeed, MowingDebt } from '../../../src/core/plan/types.js';

export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;
/** Monday 1 June 2026 00:00 CEST. */
export const WEEK_START_MS = Date.UTC(2026, 4, 31, 22, 0);
export const TIME_ZONE = 'Europe/Berlin';

export interface HourSpec {
  status: 'OK' | 'WARNING' | 'BLOCK' | null;
  index: number;
  rainMm: number;
  rain: boolean;
  frost: boolean;
  bladesWet: boolean;
}

export function hourOf(startMs: number, spec: HourSpec): HourIndex {
  const input = spec.frost
    ? { temperature: 2, precipitation_rate: 0, min_temp_3h: 1, blade_drying_minutes: spec.bladesWet ? 30 : 0 }
    : { temperature: 16, precipitation_rate: 0, blade_drying_minutes: spec.bladesWet ? 30 : 0 };
  return {
    startMs,
    endMs: startMs + HOUR_MS,
    index: spec.status === null ? null : spec.index,
    status: spec.status,
    limitingCheck: spec.status === null ? null : 'rain',
    expectedRainMm: spec.rainMm,
    rainExpected: spec.rain,
    input,
    inputSource: {},
  };
}

export const NEED: LawnNeed = {
  growthMmPerDay: 4,
  heightMm: 52,
  targetHeightMm: 40,
  cutDueAtMs: WEEK_START_MS,
  minutesPerFullCut: 360,
  capacitySource: 'area',
  runtimeNeededMinutesThisWeek: 600,
};
export const NO_DEBT: MowingDebt = { mm: 0, runtimeMinutes: 0, overThreshold: false };

const spec: fc.Arbitrary<HourSpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      status: fc.constant<'OK'>('OK'),
      index: fc.integer({ min: 70, max: 100 }),
      rainMm: fc.constant(0),
      rain: fc.constant(false),
      frost: fc.constant(false),
      bladesWet: fc.constant(false),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      status: fc.constant<'WARNING'>('WARNING'),
      index: fc.integer({ min: 40, max: 69 }),
      rainMm: fc.constant(0),
      rain: fc.constant(false),
      frost: fc.constant(false),
      bladesWet: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      status: fc.constant<'BLOCK'>('BLOCK'),
      index: fc.integer({ min: 0, max: 39 }),
      rainMm: fc.double({ min: 0.2, max: 5, noNaN: true }),
      rain: fc.constant(true),
      frost: fc.constant(false),
      bladesWet: fc.constant(true),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      status: fc.constantFrom<'OK' | 'WARNING'>('OK', 'WARNING'),
      index: fc.constant(70),
      rainMm: fc.constant(0),
      rain: fc.constant(false),
      frost: fc.constant(true),
      bladesWet: fc.constant(false),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      status: fc.constant(null),
      index: fc.constant(0),
      rainMm: fc.constant(0),
      rain: fc.constant(false),
      frost: fc.constant(false),
      bladesWet: fc.constant(false),
    }),
  },
);

const mower: fc.Arbitrary<PlanMower> = fc
  .record({
    runMinutes: fc.integer({ min: 30, max: 240 }),
    minShare: fc.double({ min: 0.2, max: 1, noNaN: true }),
    gapMinutes: fc.integer({ min: 0, max: 24 * 60 }),
    chargeMinutes: fc.integer({ min: 0, max: 120 }),
  })
  .map(({ runMinutes, minShare, gapMinutes, chargeMinutes }) => ({
    runMinutes,
    minRunMinutes: Math.max(15, Math.round(runMinutes * minShare)),
    gapMinutes,
    chargeMinutes,
  }));

/** Quiet hours: local hours of the day (UTC here, for simplicity) in [from, to) are not allowed. */
export function quietBetween(fromHour: number, toHour: number): (ms: number) => boolean {
  return (ms) => {
    const hour = new Date(ms).getUTCHours();
    return fromHour <= toHour ? hour < fromHour || hour >= toHour : hour >= toHour && hour < fromHour;
  };
}

export interface Scenario {
  input: PlanInput;
  quiet: [number, number];
}

export const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    nowOffsetMinutes: fc.integer({ min: 0, max: 6 * 24 * 60 }),
    hours: fc.array(spec, { minLength: 24, maxLength: 168 }),
    quiet: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 23 })),
    mower,
    need: fc.integer({ min: 0, max: 1500 }),
    mown: fc.integer({ min: 0, max: 600 }),
    debt: fc.record({
      mm: fc.double({ min: 0, max: 30, noNaN: true }),
      runtimeMinutes: fc.integer({ min: 0, max: 600 }),
      overThreshold: fc.boolean(),
    }),
    rainLeadMinutes: fc.constantFrom(0, 30, 60),
  })
  .map(({ nowOffsetMinutes, hours, quiet, mower: m, need, mown, debt, rainLeadMinutes }) => {
    const nowMs = WEEK_START_MS + nowOffsetMinutes * MINUTE_MS;
    const firstHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
    return {
      quiet,
      input: {
        lawnId: 'garden',
        nowMs,
        timeZone: TIME_ZONE,
        hours: hours.map((h, i) => hourOf(firstHour + i * HOUR_MS, h)),
        allowedAt: quietBetween(quiet[0], quiet[1]),
        rainLeadMinutes,
        need: { ...NEED, runtimeNeededMinutesThisWeek: need },
        debt,
        mownMinutesThisWeek: mown,
        mower: m,
        previous: null,
      },
    };
  });
