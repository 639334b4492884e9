/**
 * The plan the decision follows (src/core/mower/planRule.ts PlanFollowing), read from the station's
 * last state: its `plan` field (`{ lawns: Record<lawnId, LawnPlan> }`, src/core/plan/types.ts), which
 * the planner unit adds when it runs. Read defensively: without the field (the planner is off, failed
 * or not built) or with a malformed lawn plan, there is no plan and the driver acts as without one.
 *
 * The lawn of the station's `mower` block (`which: 'first'`): the control's own (`mower.control.lawn`),
 * else the station's default lawn (the station id), else the first lawn of the plan (the planner lists
 * a station's lawns in their configured order, and the first is the one the station's `mower` block
 * belongs to). A further lawn's own mower (`which: 'own'`) follows only its own lawn's plan: without
 * one it acts as without a planner, never on another lawn's slots.
 */
import type { PlanFollowing } from '../core/mower/planRule.js';

type Loose = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function lawnPlanOf(lawns: Loose, lawn: string, stationId: string, which: 'first' | 'own'): unknown {
  if (Object.hasOwn(lawns, lawn)) return lawns[lawn];
  if (which === 'own') return undefined;
  if (Object.hasOwn(lawns, stationId)) return lawns[stationId];
  return Object.values(lawns)[0];
}

export function planOfState(
  state: Loose | undefined,
  lawn: string,
  stationId: string,
  timeZone: string,
  which: 'first' | 'own' = 'first',
): PlanFollowing | undefined {
  const plan = state?.plan;
  if (!isRecord(plan) || !isRecord(plan.lawns)) return undefined;
  const lawnPlan = lawnPlanOf(plan.lawns, lawn, stationId, which);
  if (!isRecord(lawnPlan) || !Array.isArray(lawnPlan.slots) || !isRecord(lawnPlan.need)) return undefined;
  const needed = lawnPlan.need.runtimeNeededMinutesThisWeek;
  if (!isFiniteNumber(needed)) return undefined;
  const slots = lawnPlan.slots
    .filter(isRecord)
    .filter((slot) => isFiniteNumber(slot.startMs) && isFiniteNumber(slot.endMs) && slot.endMs > slot.startMs)
    .map((slot) => ({ startMs: slot.startMs as number, endMs: slot.endMs as number }));
  return { slots, runtimeNeededMinutesThisWeek: needed, timeZone };
}
