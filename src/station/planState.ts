/**
 * The station state's `plan` field: the week plan of each lawn the station serves (src/core/plan/types.ts),
 * filled by the planner unit. Declared here, once, so the page, `/v1/stations`, the iCalendar feed and
 * the planner read and write one typed field (a second declaration of `plan` elsewhere would clash).
 */
import type { LawnPlan } from '../core/plan/types.js';

export interface StationPlanState {
  /** By lawn id; a lawn the planner has not planned yet is absent. */
  readonly lawns: Readonly<Record<string, LawnPlan>>;
}

declare module './statePayload.js' {
  interface StationStateFields {
    plan: StationPlanState;
  }
}
