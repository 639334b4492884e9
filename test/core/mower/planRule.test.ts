import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, type DecisionContext, type LedgerView } from '../../../src/core/mower/decision.js';
import { planRefusal, slotAt, type PlanFollowing } from '../../../src/core/mower/planRule.js';
import {
  baseSettings,
  context,
  dryStation,
  emptyLedger,
  lastCommandArb,
  MINUTE,
  mostly,
  NOW,
  settingsArb,
  stationArb,
} from './decisionArbitraries.js';

const settings = baseSettings;
const ledger = emptyLedger;
/** A slot from 14:00 to 16:00 Berlin time today. */
const afternoon = { startMs: Date.UTC(2026, 5, 10, 12, 0), endMs: Date.UTC(2026, 5, 10, 14, 0) };
const plan: PlanFollowing = { slots: [afternoon], runtimeNeededMinutesThisWeek: 120, timeZone: 'Europe/Berlin' };

const ledgerArb: fc.Arbitrary<LedgerView> = fc.record({
  current: fc.constant(null),
  lastCompletedEndMs: mostly<number | null>(null, fc.option(fc.integer({ min: NOW - 48 * 60 * MINUTE, max: NOW }), { nil: null })),
  userDockedDay: mostly<string | null>(null, fc.constantFrom(null, '2026-06-10')),
  learnedRunMinutes: mostly<number | null>(null, fc.option(fc.integer({ min: 10, max: 300 }), { nil: null })),
  runsThisWeek: mostly(0, fc.integer({ min: 0, max: 10 })),
  mowedMinutesThisWeek: fc.integer({ min: 0, max: 600 }),
  lastCommand: lastCommandArb(60),
});
const anySettingsArb = settingsArb(48);
const contextArb: fc.Arbitrary<DecisionContext> = fc.record({
  nowMs: fc.integer({ min: NOW - 12 * 60 * MINUTE, max: NOW + 12 * 60 * MINUTE }),
  today: fc.constant('2026-06-10'),
  shuttingDown: mostly(false, fc.boolean()),
  automatic: mostly(true, fc.boolean()),
  requested: mostly(false, fc.boolean()),
  clockSteppedAtMs: mostly<number | null>(null, fc.option(fc.integer({ min: NOW - 60 * MINUTE, max: NOW }), { nil: null })),
  commandPending: mostly(false, fc.boolean()),
  commandFailed: mostly(false, fc.boolean()),
  callsLeft: mostly<number | null>(null, fc.option(fc.integer({ min: 0, max: 5 }), { nil: null })),
  quiet: mostly<DecisionContext['quiet']>(undefined, fc.constant({ en: 'night ban', de: 'Nachtruhe' })),
  mower: mostly('docked' as const, fc.constantFrom('docked' as const, 'error' as const, 'unknown' as const, 'paused' as const)),
  startedAtMs: fc.constant(NOW - 24 * 60 * MINUTE),
  firstStateSeen: mostly(true, fc.boolean()),
});
/** Slots around NOW (some covering it), oldest first, not overlapping; a need that is sometimes met. */
const planArb: fc.Arbitrary<PlanFollowing> = fc
  .record({
    starts: fc.uniqueArray(fc.integer({ min: -12, max: 12 }), { maxLength: 6 }),
    length: fc.integer({ min: 1, max: 3 }),
    need: fc.integer({ min: 0, max: 600 }),
  })
  .map(({ starts, length, need }) => ({
    slots: starts
      .sort((a, b) => a - b)
      .filter((hour, index, sorted) => index === 0 || hour >= sorted[index - 1]! + length)
      .map((hour) => ({ startMs: NOW + hour * 60 * MINUTE, endMs: NOW + (hour + length) * 60 * MINUTE })),
    runtimeNeededMinutesThisWeek: need,
    timeZone: 'Europe/Berlin',
  }));

describe('planRefusal', () => {
  it('refuses outside a slot and names the next slot by its local start, in both languages', () => {
    expect(planRefusal(plan, 0, NOW)).toEqual({
      code: 'outside_plan',
      en: 'outside the plan: the next planned slot starts Wed 14:00',
      de: 'Außerhalb des Plans: das nächste geplante Zeitfenster beginnt Mi., 14:00',
    });
    expect(planRefusal(plan, 0, afternoon.startMs)).toBeUndefined();
    expect(planRefusal(plan, 0, afternoon.endMs - 1)).toBeUndefined();
    expect(planRefusal(plan, 0, afternoon.endMs)?.en).toBe('outside the plan: no slot is planned ahead');
  });

  it("refuses once the ledger's minutes this week reach the plan's need", () => {
    expect(planRefusal(plan, 120, afternoon.startMs)).toEqual({
      code: 'plan_done',
      en: "this week's plan is done: 120 of 120 min mowed",
      de: 'Der Plan dieser Woche ist erfüllt: 120 von 120 Min. gemäht',
    });
    expect(planRefusal(plan, 119, afternoon.startMs)).toBeUndefined();
  });
});

describe('decide with a plan', () => {
  it('waits for the slot, starts inside it, and stops starting when the week is mowed', () => {
    expect(decide(dryStation, ledger, settings, { ...context, plan })).toMatchObject({ action: 'none', code: 'outside_plan' });
    const inSlot = { ...context, nowMs: afternoon.startMs + MINUTE, plan };
    const fresh = { ...dryStation, lastReadingAtMs: inSlot.nowMs - MINUTE };
    expect(decide(fresh, ledger, settings, inSlot).action).toBe('start');
    expect(decide(fresh, { ...ledger, mowedMinutesThisWeek: 120 }, settings, inSlot)).toMatchObject({
      action: 'none',
      code: 'plan_done',
    });
    // Without a plan: as before, the start is not held for a slot.
    expect(decide(dryStation, ledger, settings, context).action).toBe('start');
  });

  it('"Mow now" ignores the plan, but not the safety rules', () => {
    const requested = { ...context, requested: true, plan };
    expect(decide(dryStation, { ...ledger, mowedMinutesThisWeek: 500 }, settings, requested).action).toBe('start');
    expect(decide({ ...dryStation, raining: true }, ledger, settings, requested)).toMatchObject({ action: 'none', code: 'raining' });
  });

  it("never starts automatically outside a planned slot, nor past the week's need", () => {
    fc.assert(
      fc.property(stationArb, ledgerArb, anySettingsArb, contextArb, planArb, (station, book, config, ctx, weekPlan) => {
        const automatic = { ...ctx, requested: false, plan: weekPlan };
        if (decide(station, book, config, automatic).action !== 'start') return;
        expect(slotAt(weekPlan, ctx.nowMs)).toBeDefined();
        expect(book.mowedMinutesThisWeek).toBeLessThan(weekPlan.runtimeNeededMinutesThisWeek);
      }),
      { numRuns: 5000 },
    );
  });

  it('never makes a start happen that a safety rule forbids (the plan only replaces the runs-per-week count)', () => {
    fc.assert(
      fc.property(stationArb, ledgerArb, anySettingsArb, contextArb, planArb, (station, book, config, ctx, weekPlan) => {
        const withPlan = decide(station, book, config, { ...ctx, plan: weekPlan });
        const withoutPlan = decide(station, book, { ...config, runsPerWeek: null }, ctx);
        if (withPlan.action === 'start') expect(withoutPlan.action).toBe('start');
        // Docking never depends on the plan.
        if (withoutPlan.action === 'dock') expect(withPlan).toEqual(withoutPlan);
        if (ctx.requested) expect(withPlan).toEqual(withoutPlan);
      }),
      { numRuns: 5000 },
    );
  });
});
