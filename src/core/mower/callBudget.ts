/**
 * A mower's API budget (calls per day, week and month; 0: no limit), counted over rolling windows
 * of 24 hours, 7 and 30 days: never more calls in any such window than the vendor allows, whatever
 * its own calendar (Gardena's about 700 a week, Husqvarna's about 10,000 a month).
 */

export interface CallBudgetLimits {
  readonly perDay: number;
  readonly perWeek: number;
  readonly perMonth: number;
}

export const DAY_MS = 86_400_000;
export const BUDGET_WINDOWS_MS = { perDay: DAY_MS, perWeek: 7 * DAY_MS, perMonth: 30 * DAY_MS } as const;

export interface BudgetLeft {
  /** Calls left in each window; null where there is no limit. */
  readonly perDay: number | null;
  readonly perWeek: number | null;
  readonly perMonth: number | null;
  /** The smallest of them: what may still be sent now; null: no limit at all. */
  readonly now: number | null;
}

/** What is left, given the calls counted in each window (`callsWithin(windowMs)`). */
export function budgetLeft(limits: CallBudgetLimits, callsWithin: (windowMs: number) => number): BudgetLeft {
  const left = (limit: number, windowMs: number): number | null => (limit > 0 ? Math.max(0, limit - callsWithin(windowMs)) : null);
  const perDay = left(limits.perDay, BUDGET_WINDOWS_MS.perDay);
  const perWeek = left(limits.perWeek, BUDGET_WINDOWS_MS.perWeek);
  const perMonth = left(limits.perMonth, BUDGET_WINDOWS_MS.perMonth);
  const limited = [perDay, perWeek, perMonth].filter((value): value is number => value !== null);
  return { perDay, perWeek, perMonth, now: limited.length === 0 ? null : Math.min(...limited) };
}
