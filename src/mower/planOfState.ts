/**
 * The plan the decision follows (src/core/mower/planRule.ts PlanFollowing), read from the station's
 * last state: its `plan` field (`{ lawns: Record<lawnId, LawnPlan> }`, src/core/plan/types.ts), which
 * the planner unit adds when it runs. Read defensively: without the field (the planner is off, failed
 * or not built) or with a malformed lawn plan, there is no plan and the driver acts as without one.
 *
 * The lawn: the control's own (`mower.control.lawn`), else the station's default lawn (the station
 * id), else the first lawn of the plan (the planner lists a station's lawns in their configured
 * order, and the first is the one the station's `mower` block belongs to).
 */
import type { PlanFollowing } from '../core/mower/planRule.js';

type Loose = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function lawnPlanOf(lawns: Loose, lawn: string, stationId: string): unknown {
  if (lawn in lawns) return lawns[lawn];
  if (stationId in lawns) return lawns[stationId];
  return Object.values(lawns)[0];
}

export function planOfState(state: Loose | undefined, lawn: string, stationId: string, timeZone: string): PlanFollowing | undefined {
  const plan = state?.plan;
  if (!isRecord(plan) || !isRecord(plan.lawns)) return undefined;
  const lawnPlan = lawnPlanOf(plan.lawns, lawn, stationId);
  if (!isRecord(lawnPlan) || !Array.isArray(lawnPlan.slots) || !isRecord(lawnPlan.need)) return undefined;
  const needed = lawnPlan.need.runtimeNeededMinutesThisWeek;
  if (!isFiniteNumber(needed)) return undefined;
  const slots = lawnPlan.slots
    .filter(isRecord)
    .filter((slot) => isFiniteNumber(slot.startMs) && isFiniteNumber(slot.endMs) && slot.endMs > slot.startMs)
    .map((slot) => ({ startMs: slot.startMs as number, endMs: slot.endMs as number }));
  return { slots, runtimeNeededMinutesThisWeek: needed, timeZone };
}
