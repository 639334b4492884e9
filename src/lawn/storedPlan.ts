/**
 * A week plan read back from the database (src/store/lawnPlanStore.ts) is used again only when it has
 * the members the planner reads back: its slots' ids, times and sequences; anything damaged is none,
 * and the lawn is planned afresh.
 */
import type { LawnPlan } from '../core/plan/types.js';

const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const text = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { en?: unknown }).en === 'string' &&
  typeof (value as { de?: unknown }).de === 'string';

/** A stored plan checked for the members the planner reads back (its slots' ids, times and sequences); anything damaged: none. */
export function restorePlan(raw: unknown, lawnId: string): LawnPlan | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const plan = raw as Record<string, unknown>;
  if (plan.lawnId !== lawnId || !num(plan.computedAtMs) || !num(plan.horizonEndMs) || !Array.isArray(plan.slots)) return null;
  const slotsOk = plan.slots.every((slot: unknown) => {
    const s = slot as Record<string, unknown> | null;
    return (
      typeof s === 'object' &&
      s !== null &&
      typeof s.id === 'string' &&
      num(s.startMs) &&
      num(s.endMs) &&
      s.endMs > s.startMs &&
      num(s.sequence) &&
      num(s.changedAtMs) &&
      (s.band === 'OK' || s.band === 'WARNING') &&
      typeof s.relaxed === 'boolean' &&
      text(s.reason)
    );
  });
  if (!slotsOk || typeof plan.need !== 'object' || typeof plan.debt !== 'object' || !text(plan.statusReason)) return null;
  return plan as unknown as LawnPlan;
}
