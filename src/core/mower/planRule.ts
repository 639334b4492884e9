/**
 * How the decision (./decision.ts) follows the week's plan (src/core/plan/types.ts LawnPlan): with a
 * plan, an automatic start happens only inside a planned slot, and the week's budget is the plan's
 * runtime need against the minutes the ledger mowed this week. The rule only ever adds a refusal:
 * it runs after every safety rule has allowed the start, so a plan can never make a start happen that
 * a safety rule forbids. "Mow now" does not ask it.
 */

/** The plan as the decision reads it (the shell builds it from the state's `plan`). */
export interface PlanFollowing {
  /** The planned slots, oldest first. */
  readonly slots: ReadonlyArray<{ readonly startMs: number; readonly endMs: number }>;
  /** Mowing minutes the lawn needs this week (LawnNeed.runtimeNeededMinutesThisWeek). */
  readonly runtimeNeededMinutesThisWeek: number;
  /** The station's time zone, for the next slot's local start in the reason. */
  readonly timeZone: string;
}

export interface PlanRefusal {
  readonly code: 'outside_plan' | 'plan_done';
  readonly en: string;
  readonly de: string;
}

/** The slot `nowMs` lies in (start inclusive, end exclusive), or undefined. */
export function slotAt(plan: PlanFollowing, nowMs: number): { startMs: number; endMs: number } | undefined {
  return plan.slots.find((slot) => slot.startMs <= nowMs && nowMs < slot.endMs);
}

/** The first slot that starts after `nowMs`, or undefined. */
export function nextSlot(plan: PlanFollowing, nowMs: number): { startMs: number; endMs: number } | undefined {
  return plan.slots.filter((slot) => slot.startMs > nowMs).sort((a, b) => a.startMs - b.startMs)[0];
}

function localStart(atMs: number, timeZone: string, locale: 'en-GB' | 'de-DE'): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(atMs);
  } catch {
    // An unknown zone (the configuration validates it; this is the last line): UTC, said so.
    return `${new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(atMs)} UTC`;
  }
}

/** Why the plan refuses an automatic start now, or undefined when it allows it. */
export function planRefusal(plan: PlanFollowing, mowedMinutesThisWeek: number, nowMs: number): PlanRefusal | undefined {
  const needed = Math.max(0, Math.round(plan.runtimeNeededMinutesThisWeek));
  // A dormant lawn (winter, drought: no growth) needs nothing: say that, not "0 of 0 min mowed".
  if (needed === 0)
    return {
      code: 'plan_done',
      en: 'the lawn needs no mowing this week (it is not growing)',
      de: 'Der Rasen braucht diese Woche keinen Schnitt (er wächst nicht)',
    };
  if (mowedMinutesThisWeek >= needed)
    return {
      code: 'plan_done',
      en: `this week's plan is done: ${mowedMinutesThisWeek} of ${needed} min mowed`,
      de: `Der Plan dieser Woche ist erfüllt: ${mowedMinutesThisWeek} von ${needed} Min. gemäht`,
    };
  if (slotAt(plan, nowMs)) return undefined;
  const next = nextSlot(plan, nowMs);
  if (!next)
    return {
      code: 'outside_plan',
      en: 'outside the plan: no slot is planned ahead',
      de: 'Außerhalb des Plans: kein Zeitfenster geplant',
    };
  return {
    code: 'outside_plan',
    en: `outside the plan: the next planned slot starts ${localStart(next.startMs, plan.timeZone, 'en-GB')}`,
    de: `Außerhalb des Plans: das nächste geplante Zeitfenster beginnt ${localStart(next.startMs, plan.timeZone, 'de-DE')}`,
  };
}
