/**
 * The planner's properties (src/core/plan/planner.ts): no slot in quiet hours, rain, frost or BLOCK; slots
 * never overlap and keep the gap; the need is met when the allowed dry time allows it; a fixed point for a
 * fixed forecast; small forecast changes move nothing, a band change moves only the slots it touches;
 * deterministic. fast-check, seeded by its own runner (a failure prints the seed and the shrunk case).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frostOnBladesAt } from '../../../src/core/frost.js';
import { planLawn, type PlanInput } from '../../../src/core/plan/planner.js';
import type { LawnPlan, PlanSlot } from '../../../src/core/plan/types.js';
import { weekSpan } from '../../../src/core/plan/week.js';
import { HOUR_MS, MINUTE_MS, NEED, NO_DEBT, TIME_ZONE, WEEK_START_MS, hourOf, scenario, type HourSpec } from './planHelpers.js';

const NUM_RUNS = 120;
const STEP_MS = 5 * MINUTE_MS;

function hourAt(input: PlanInput, ms: number) {
  return input.hours.find((hour) => hour.startMs <= ms && ms < hour.endMs);
}

/** Every 5-minute step of a slot is allowed, dry, frost-free, rated and not BLOCK; WARNING only in a relaxed slot. */
function expectAllowed(input: PlanInput, slot: PlanSlot): void {
  const leadMs = (input.rainLeadMinutes ?? 0) * MINUTE_MS;
  for (let t = slot.startMs; t < slot.endMs; t += STEP_MS) {
    const hour = hourAt(input, t);
    expect(hour, `step ${t} of ${slot.id} has a forecast hour`).toBeDefined();
    expect(hour!.status).not.toBeNull();
    expect(hour!.status).not.toBe('BLOCK');
    expect(frostOnBladesAt(hour!.input, t, input.timeZone)).toBe(false);
    expect(input.allowedAt!(t) && input.allowedAt!(t + STEP_MS - 1)).toBe(true);
    const wet = input.hours.some((h) => h.rainExpected && t < h.endMs && t + STEP_MS > h.startMs - leadMs);
    expect(wet).toBe(false);
    if (hour!.status === 'WARNING') {
      expect(slot.relaxed).toBe(true);
      expect(input.debt.overThreshold).toBe(true);
      expect(hour!.input.blade_drying_minutes).toBe(0);
    }
  }
}

function expectApart(input: PlanInput, plan: LawnPlan): void {
  const gapMs = Math.max(input.mower.gapMinutes, input.mower.chargeMinutes) * MINUTE_MS;
  for (let i = 1; i < plan.slots.length; i++) {
    expect(plan.slots[i]!.startMs).toBeGreaterThanOrEqual(plan.slots[i - 1]!.endMs + gapMs);
  }
}

describe('planLawn (properties)', () => {
  it('never plans a slot in quiet hours, rain (or its lead), frost, BLOCK or unrated hours, nor past the horizon', () => {
    fc.assert(
      fc.property(scenario, ({ input }) => {
        const plan = planLawn(input);
        for (const slot of plan.slots) {
          expect(slot.startMs).toBeGreaterThanOrEqual(input.nowMs);
          expect(slot.endMs).toBeLessThanOrEqual(plan.horizonEndMs);
          expect(slot.endMs - slot.startMs).toBeGreaterThanOrEqual(input.mower.minRunMinutes * MINUTE_MS);
          expectAllowed(input, slot);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('never overlaps slots and keeps the larger of the gap and the charge time between them', () => {
    fc.assert(
      fc.property(scenario, ({ input }) => {
        expectApart(input, planLawn(input));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(scenario, ({ input }) => {
        expect(planLawn(input)).toEqual(planLawn(input));
      }),
      { numRuns: 50 },
    );
  });

  it('is a fixed point for a fixed forecast: re-planning with the plan as previous changes nothing', () => {
    fc.assert(
      fc.property(scenario, ({ input }) => {
        const first = planLawn(input);
        const second = planLawn({ ...input, previous: first });
        expect(second.slots).toEqual(first.slots);
        expect(second.changes).toEqual([]);
        expect(second.status).toBe(first.status);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('moves no slot when an hour’s rain changes by 0.1 mm without changing its band', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), fc.boolean(), ({ input }, pick, up) => {
        const first = planLawn(input);
        const i = pick % input.hours.length;
        const hour = input.hours[i]!;
        const rainMm = Math.max(0, hour.expectedRainMm + (up ? 0.1 : -0.1));
        const hours = input.hours.map((h, k) => (k === i ? { ...h, expectedRainMm: rainMm } : h));
        const second = planLawn({ ...input, hours, previous: first });
        expect(second.slots).toEqual(first.slots);
        expect(second.changes).toEqual([]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('on a band change keeps every slot whose own hours did not change, and lists every change', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), fc.constantFrom('OK', 'WARNING', 'BLOCK'), ({ input }, pick, status) => {
        const first = planLawn(input);
        const i = pick % input.hours.length;
        const changed = input.hours[i]!;
        const index = status === 'OK' ? 80 : status === 'WARNING' ? 55 : 20;
        const hours = input.hours.map((h, k) => (k === i ? { ...h, status: status as 'OK', index } : h));
        const second = planLawn({ ...input, hours, previous: first });
        const touched = (slot: PlanSlot) => slot.startMs < changed.endMs && slot.endMs > changed.startMs;
        for (const slot of first.slots) {
          if (touched(slot)) continue;
          expect(second.slots).toContainEqual(slot);
        }
        const changedIds = new Set(second.changes.map((change) => change.slotId));
        for (const slot of first.slots) {
          const now = second.slots.find((s) => s.id === slot.id);
          if (now === undefined || JSON.stringify(now) !== JSON.stringify(slot)) expect(changedIds.has(slot.id)).toBe(true);
        }
        for (const slot of second.slots) if (!first.slots.some((s) => s.id === slot.id)) expect(changedIds.has(slot.id)).toBe(true);
        for (const change of second.changes) {
          expect(change.reason.en.length).toBeGreaterThan(0);
          expect(change.reason.de.length).toBeGreaterThan(0);
        }
        expectApart(input, second);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('plans at least the need whenever enough allowed dry time exists', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 * 24 * 60 }),
        fc.integer({ min: 6, max: 48 }).map((steps) => steps * 5),
        fc.integer({ min: 0, max: 20 * 60 }),
        fc.integer({ min: 0, max: 1500 }),
        (offsetMinutes, runMinutes, gapMinutes, wanted) => {
          const nowMs = WEEK_START_MS + offsetMinutes * MINUTE_MS;
          const first = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
          const hours = Array.from({ length: 216 }, (_, k) =>
            hourOf(first + k * HOUR_MS, { status: 'OK', index: 85, rainMm: 0, rain: false, frost: false, bladesWet: false }),
          );
          const week = weekSpan(nowMs, TIME_ZONE);
          const firstStep = Math.ceil(nowMs / STEP_MS) * STEP_MS;
          // Slots of runMinutes, the gap (in whole steps) apart, that start before the week ends.
          const gapStepMinutes = Math.ceil(gapMinutes / 5) * 5;
          const fitting = Math.floor((week.endMs - firstStep - 1) / ((runMinutes + gapStepMinutes) * MINUTE_MS)) + 1;
          const need = Math.min(wanted, fitting * runMinutes);
          const plan = planLawn({
            lawnId: 'garden',
            nowMs,
            timeZone: TIME_ZONE,
            hours,
            need: { ...NEED, runtimeNeededMinutesThisWeek: need },
            debt: NO_DEBT,
            mownMinutesThisWeek: 0,
            mower: { runMinutes, minRunMinutes: Math.min(30, runMinutes), gapMinutes, chargeMinutes: 0 },
          });
          const plannedThisWeek = plan.slots
            .filter((s) => s.startMs < week.endMs)
            .reduce((sum, s) => sum + (s.endMs - s.startMs) / MINUTE_MS, 0);
          expect(plannedThisWeek).toBeGreaterThanOrEqual(need);
          expect(plan.status).toBe('on_track');
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('past the debt threshold plans at least the need whenever the allowed OK and dry-bladed WARNING time can hold it', () => {
    const hourKind = fc.constantFrom<HourSpec>(
      { status: 'BLOCK', index: 20, rainMm: 2, rain: true, frost: false, bladesWet: true },
      { status: 'WARNING', index: 50, rainMm: 0, rain: false, frost: false, bladesWet: true },
      { status: 'WARNING', index: 60, rainMm: 0, rain: false, frost: true, bladesWet: false },
      { status: null, index: 0, rainMm: 0, rain: false, frost: false, bladesWet: false },
      { status: 'OK', index: 90, rainMm: 0, rain: false, frost: false, bladesWet: false }, // in quiet hours (below)
    );
    const dryHour = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 40, max: 69 }).map((index) => ({ status: 'WARNING' as const, index })) },
      { weight: 1, arbitrary: fc.integer({ min: 70, max: 100 }).map((index) => ({ status: 'OK' as const, index })) },
    );
    // Each UTC day one dry window (mostly WARNING with dry blades, some OK) between 04:00 and 20:00; all else barred.
    const day = fc.record({
      from: fc.integer({ min: 4, max: 12 }),
      hours: fc.array(dryHour, { maxLength: 8 }),
      barred: fc.array(hourKind, { minLength: 24, maxLength: 24 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.array(day, { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 6, max: 36 }).map((steps) => steps * 5),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 8 * 60 }),
        fc.integer({ min: 0, max: 120 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (offsetMinutes, days, runMinutes, minShare, gapMinutes, chargeMinutes, share) => {
          const nowMs = WEEK_START_MS + offsetMinutes * MINUTE_MS;
          const firstHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
          const week = weekSpan(nowMs, TIME_ZONE);
          const quiet = new Set<number>();
          const dayOf = (ms: number) => Math.floor((ms - Date.UTC(2026, 4, 31)) / (24 * HOUR_MS));
          const hours = Array.from({ length: 168 }, (_, k) => {
            const startMs = firstHour + k * HOUR_MS;
            const d = days[dayOf(startMs)]!;
            const hourOfDay = new Date(startMs).getUTCHours();
            const inWindow = hourOfDay >= d.from && hourOfDay < d.from + d.hours.length;
            if (inWindow) {
              const dry = d.hours[hourOfDay - d.from]!;
              return hourOf(startMs, { ...dry, rainMm: 0, rain: false, frost: false, bladesWet: false });
            }
            const barred = d.barred[hourOfDay]!;
            if (barred.status === 'OK') quiet.add(startMs);
            return hourOf(startMs, barred);
          });
          // What the windows hold for sure: whole runs, the gap (in whole steps) apart, inside each window from now on.
          const gapSteps = Math.ceil(Math.max(gapMinutes, chargeMinutes) / 5) * 5;
          const firstStep = Math.ceil(nowMs / STEP_MS) * STEP_MS;
          let enough = 0;
          for (let d = 0; d < days.length; d++) {
            const { from, hours: dry } = days[d]!;
            const fromMs = Math.max(firstStep, Date.UTC(2026, 4, 31) + d * 24 * HOUR_MS + from * HOUR_MS);
            const toMs = Math.min(Date.UTC(2026, 4, 31) + d * 24 * HOUR_MS + (from + dry.length) * HOUR_MS, firstHour + 168 * HOUR_MS);
            if (toMs <= fromMs || fromMs >= week.endMs) continue;
            const minutes = (toMs - fromMs) / MINUTE_MS;
            if (minutes >= runMinutes) enough += Math.floor((minutes + gapSteps) / (runMinutes + gapSteps)) * runMinutes;
          }
          const need = Math.floor(enough * share);
          const input: PlanInput = {
            lawnId: 'garden',
            nowMs,
            timeZone: TIME_ZONE,
            hours,
            allowedAt: (ms) => !quiet.has(Math.floor(ms / HOUR_MS) * HOUR_MS),
            need: { ...NEED, runtimeNeededMinutesThisWeek: need },
            debt: { mm: 15, runtimeMinutes: Math.floor(need / 2), overThreshold: true },
            mownMinutesThisWeek: 0,
            mower: { runMinutes, minRunMinutes: Math.max(5, Math.round((runMinutes * minShare) / 5) * 5), gapMinutes, chargeMinutes },
          };
          const plan = planLawn(input);
          const plannedThisWeek = plan.slots
            .filter((slot) => slot.startMs < week.endMs)
            .reduce((sum, slot) => sum + (slot.endMs - slot.startMs) / MINUTE_MS, 0);
          expect(plannedThisWeek, JSON.stringify({ enough, need })).toBeGreaterThanOrEqual(need);
          expect(plan.status).not.toBe('cannot_keep_up');
          for (const slot of plan.slots) expectAllowed(input, slot);
          expectApart(input, plan);
        },
      ),
      { numRuns: 80 },
    );
  }, 120_000);
});
