/**
 * Does a wall-clock instant match a cron expression? node-cron parses the
 * expression (its syntax and validation stay the configuration's); the
 * scheduler asks this once per tick for the current minute (or second), so a
 * clock step never makes it walk the missed minutes.
 */
import cron from 'node-cron';
import { localDateTime } from '../core/index.js';

export interface CronMatcher {
  /** The expression has a seconds field other than "0": it is matched per second, not per minute. */
  readonly perSecond: boolean;
  matches(epochMs: number): boolean;
}

const numbers = (values: ReadonlyArray<number | string>): Set<number> => new Set(values.filter((value): value is number => typeof value === 'number'));

export function cronMatcher(expression: string, timeZone: string): CronMatcher {
  const fields = cron.parse(expression);
  const seconds = new Set(fields.second);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const days = numbers(fields.dayOfMonth);
  const months = new Set(fields.month);
  const weekdays = new Set([...numbers(fields.dayOfWeek)].map((day) => day % 7));
  // Classic cron: when both the day of month and the weekday are restricted, either one matches.
  const dayRestricted = days.size < 31;
  const weekdayRestricted = weekdays.size < 7;
  const perSecond = !(seconds.size === 1 && seconds.has(0));
  return {
    perSecond,
    matches(epochMs) {
      const local = localDateTime(epochMs, timeZone);
      if (perSecond && !seconds.has(local.second)) return false;
      if (!minutes.has(local.minute) || !hours.has(local.hour) || !months.has(local.month)) return false;
      const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
      const dayMatch = days.has(local.day);
      const weekdayMatch = weekdays.has(weekday);
      return dayRestricted && weekdayRestricted ? dayMatch || weekdayMatch : dayMatch && weekdayMatch;
    },
  };
}
