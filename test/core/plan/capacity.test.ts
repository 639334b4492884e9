/**
 * The room the steps hold (src/core/plan/capacity.ts) against an exhaustive search on small grids: the
 * most minutes of new slots, with a given slot, and with one starting before an instant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capacityOf, type CapacityRules } from '../../../src/core/plan/capacity.js';
import type { Span } from '../../../src/core/plan/placement.js';
import type { Step } from '../../../src/core/plan/steps.js';
import { WEEK_START_MS, hourOf } from './planHelpers.js';

const STEP_MS = 5 * 60_000;
const HOUR = hourOf(WEEK_START_MS, { status: 'OK', index: 80, rainMm: 0, rain: false, frost: false, bladesWet: false });

type Kind = 'ok' | 'relaxable' | 'barred';

function stepOf(startMs: number, kind: Kind): Step {
  if (kind === 'ok') return { startMs, band: 'OK', relaxable: false, bar: null, index: 80, hour: HOUR };
  if (kind === 'relaxable') return { startMs, band: null, relaxable: true, bar: 'warning', index: 55, hour: HOUR };
  return { startMs, band: null, relaxable: false, bar: 'rain', index: 20, hour: HOUR };
}

const grid = fc
  .array(fc.record({ skip: fc.integer({ min: 0, max: 6 }), kind: fc.constantFrom<Kind>('ok', 'ok', 'relaxable', 'barred') }), {
    minLength: 1,
    maxLength: 16,
  })
  .map((cells) => {
    let t = WEEK_START_MS;
    return cells.map(({ skip, kind }) => {
      t += STEP_MS + (skip === 6 ? 2 * STEP_MS : 0); // now and then a gap in the grid
      return stepOf(t, kind);
    });
  });

const rulesOf = fc.record({
  least: fc.integer({ min: 1, max: 3 }),
  extra: fc.integer({ min: 0, max: 3 }),
  gapMinutes: fc.integer({ min: 0, max: 17 }),
  relaxed: fc.boolean(),
  from: fc.integer({ min: 0, max: 4 }),
  to: fc.integer({ min: 8, max: 30 }),
});

/** Every way to place slots, tried: the most minutes, with `before` demanding one start before that instant. */
function exhaustive(steps: readonly Step[], taken: readonly Span[], rules: CapacityRules, before = Number.POSITIVE_INFINITY): number {
  const open = (step: Step) =>
    (step.band === 'OK' || (rules.relaxed && step.relaxable)) &&
    taken.every((o) => step.startMs + STEP_MS + rules.gapMs <= o.startMs || o.endMs + rules.gapMs <= step.startMs);
  const search = (i: number, readyMs: number, satisfied: boolean): number => {
    let best = satisfied ? 0 : Number.NEGATIVE_INFINITY;
    for (let k = i; k < steps.length; k++) {
      const start = steps[k]!.startMs;
      if (start < readyMs || start < rules.fromMs || start >= rules.toMs) continue;
      for (let length = rules.leastSteps; length <= rules.mostSteps; length++) {
        const last = k + length - 1;
        if (last >= steps.length) break;
        let ok = true;
        for (let m = k; m <= last; m++) if (!open(steps[m]!) || steps[m]!.startMs !== start + (m - k) * STEP_MS) ok = false;
        if (!ok) break;
        const rest = search(last + 1, start + length * STEP_MS + rules.gapMs, satisfied || start < before);
        best = Math.max(best, length * 5 + rest);
      }
    }
    return best;
  };
  return Math.max(0, search(0, Number.NEGATIVE_INFINITY, before === Number.POSITIVE_INFINITY));
}

describe('capacityOf', () => {
  it('holds exactly as many minutes as an exhaustive search finds, with and without a given slot', () => {
    fc.assert(
      fc.property(grid, rulesOf, fc.nat(), fc.nat(), fc.nat(), (steps, r, pickTaken, pickSlot, pickBefore) => {
        const rules: CapacityRules = {
          fromMs: WEEK_START_MS + r.from * STEP_MS,
          toMs: WEEK_START_MS + r.to * STEP_MS,
          leastSteps: r.least,
          mostSteps: r.least + r.extra,
          gapMs: r.gapMinutes * 60_000,
          relaxed: r.relaxed,
        };
        const t = steps[pickTaken % steps.length]!.startMs;
        const taken = pickTaken % 3 === 0 ? [] : [{ startMs: t, endMs: t + STEP_MS }];
        const room = capacityOf(steps, taken, rules);
        expect(room.totalMinutes).toBe(exhaustive(steps, taken, rules));
        const before = steps[pickBefore % steps.length]!.startMs + STEP_MS;
        expect(room.withSlotBefore(before)).toBe(exhaustive(steps, taken, rules, before));
        const first = room.firstBefore(before);
        if (room.withSlotBefore(before) === 0) expect(first).toBeNull();
        else {
          expect(first!.startMs).toBeLessThan(before);
          expect(room.withSlot(first!)).toBe(room.withSlotBefore(before));
        }
        // A slot of open steps in the window, clear of the taken one: the room with it is its minutes plus the rest's best.
        const start = steps[pickSlot % steps.length]!;
        const slot = { startMs: start.startMs, endMs: start.startMs + rules.leastSteps * STEP_MS };
        const inGrid = Array.from({ length: rules.leastSteps }, (_, k) => steps.find((s) => s.startMs === slot.startMs + k * STEP_MS));
        const valid =
          slot.startMs >= rules.fromMs &&
          slot.startMs < rules.toMs &&
          inGrid.every((s) => s !== undefined && (s.band === 'OK' || (rules.relaxed && s.relaxable))) &&
          taken.every((o) => slot.endMs + rules.gapMs <= o.startMs || o.endMs + rules.gapMs <= slot.startMs);
        if (valid) expect(room.withSlot(slot)).toBe(rules.leastSteps * 5 + exhaustive(steps, [...taken, slot], rules));
      }),
      { numRuns: 400 },
    );
  });
});
