/** The fixed inputs and fast-check arbitraries the tests of the mower's decision rules share. */
import fc from 'fast-check';
import type { DecisionContext, DecisionSettings, LedgerView, StationView } from '../../../src/core/mower/decision.js';

export const MINUTE = 60_000;
/** Wednesday 10 June 2026, 09:00 UTC (11:00 in Berlin). */
export const NOW = Date.UTC(2026, 5, 10, 9, 0);

/** Settings a start needs nothing from: a 60-minute run, no gap; tests spread their own changes over it. */
export const baseSettings: DecisionSettings = {
  runMinutes: 60,
  minGapHours: 0,
  staleMinutes: 30,
  rainLeadMinutes: 30,
  userRuns: 'respect',
  respectUserDock: true,
  minCommandGapMinutes: 15,
  runsPerWeek: null,
};
export const dryStation: StationView = {
  known: true,
  mowable: true,
  blocked: false,
  raining: false,
  mowableForMinutes: 240,
  rainExpectedInMinutes: null,
  lastReadingAtMs: NOW - MINUTE,
};
export const emptyLedger: LedgerView = {
  current: null,
  lastCompletedEndMs: null,
  userDockedDay: null,
  learnedRunMinutes: null,
  runsThisWeek: 0,
  mowedMinutesThisWeek: 0,
  lastCommand: null,
};
export const context: DecisionContext = {
  nowMs: NOW,
  today: '2026-06-10',
  shuttingDown: false,
  automatic: true,
  clockSteppedAtMs: null,
  commandPending: false,
  callsLeft: null,
  quiet: undefined,
  mower: 'docked',
  startedAtMs: NOW - 600 * MINUTE,
  firstStateSeen: true,
};

/** Mostly the value a start needs, sometimes any: so starts are common and each rule is met alone often. */
export const mostly = <T>(good: T, any: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(good) }, { weight: 1, arbitrary: any });

export const stationArb: fc.Arbitrary<StationView> = fc.record({
  known: mostly(true, fc.boolean()),
  mowable: mostly(true, fc.boolean()),
  blocked: fc.boolean(),
  raining: mostly(false, fc.boolean()),
  mowableForMinutes: mostly<number | null>(240, fc.option(fc.integer({ min: 0, max: 2880 }), { nil: null })),
  rainExpectedInMinutes: mostly<number | null>(null, fc.option(fc.integer({ min: 0, max: 2880 }), { nil: null })),
  lastReadingAtMs: mostly<number | null>(NOW - MINUTE, fc.option(fc.integer({ min: NOW - 600 * MINUTE, max: NOW }), { nil: null })),
});

/** Any settings; `maxGapHours` bounds the minimum gap between runs. */
export const settingsArb = (maxGapHours: number): fc.Arbitrary<DecisionSettings> =>
  fc.record({
    runMinutes: fc.integer({ min: 10, max: 300 }),
    minGapHours: fc.integer({ min: 0, max: maxGapHours }),
    staleMinutes: fc.integer({ min: 5, max: 180 }),
    rainLeadMinutes: fc.integer({ min: 0, max: 180 }),
    userRuns: fc.constantFrom('respect' as const, 'dockOnRain' as const, 'takeOver' as const),
    respectUserDock: fc.boolean(),
    minCommandGapMinutes: fc.integer({ min: 0, max: 60 }),
    runsPerWeek: fc.option(fc.integer({ min: 0, max: 14 }), { nil: null }),
  });

/** Mostly no command, sometimes a start or dock sent up to `withinMinutes` before NOW. */
export const lastCommandArb = (withinMinutes: number): fc.Arbitrary<LedgerView['lastCommand']> =>
  mostly<LedgerView['lastCommand']>(
    null,
    fc.option(
      fc.record({
        action: fc.constantFrom('start' as const, 'dock' as const),
        atMs: fc.integer({ min: NOW - withinMinutes * MINUTE, max: NOW }),
      }),
      { nil: null },
    ),
  );
