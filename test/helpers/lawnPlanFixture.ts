/**
 * A stored lawn plan as the plan store keeps it: one slot, the least `restorePlan` (src/lawn/storedPlan.ts)
 * accepts, for tests of the store and of a plan kept across a restart.
 */
import type { LawnPlan } from '../../src/core/plan/types.js';

const HOUR_MS = 3_600_000;
const reason = { en: 'dry and mild', de: 'trocken und mild' };

/** `lawnId`'s plan made at `computedAtMs`, with one OK slot (by default the hour after the next). */
export function lawnPlanFixture(
  lawnId: string,
  computedAtMs: number,
  slot: { startMs: number; endMs: number } = { startMs: computedAtMs + HOUR_MS, endMs: computedAtMs + 2 * HOUR_MS },
): LawnPlan {
  return {
    lawnId,
    computedAtMs,
    horizonEndMs: computedAtMs + 24 * HOUR_MS,
    slots: [{ id: 's1', ...slot, sequence: 1, changedAtMs: computedAtMs, band: 'OK', relaxed: false, reason }],
    need: {},
    debt: {},
    statusReason: reason,
  } as unknown as LawnPlan;
}
