/**
 * Calendar days in the configured time zone, for per-day quotas: the day an
 * instant falls on, and when that day ends (DST days are 23 or 25 hours long,
 * so the end is searched, not computed as start + 24 h).
 */
import { localDateTime } from '../core/season.js';

const MINUTE_MS = 60_000;
const STEP_MS = 15 * MINUTE_MS;
const MAX_DAY_MS = 27 * 3_600_000;

const pad = (value: number): string => String(value).padStart(2, '0');

/** `YYYY-MM-DD` of the instant in `timeZone`. */
export function calendarDay(nowMs: number, timeZone: string): string {
  const local = localDateTime(nowMs, timeZone);
  return `${local.year}-${pad(local.month)}-${pad(local.day)}`;
}

/** `YYYY-MM-DD` of the Monday that begins the local week of the instant in `timeZone` (ISO weeks). */
export function weekStartDay(nowMs: number, timeZone: string): string {
  const local = localDateTime(nowMs, timeZone);
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day));
  // getUTCDay: Sunday 0 … Saturday 6; back to Monday.
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/**
 * The first instant (whole minute) after `nowMs` that lies on the next calendar day. Every
 * zone's offset is a whole number of minutes, so stepping by 15 minutes and then by minutes
 * finds the exact boundary.
 */
export function nextDayStartMs(nowMs: number, timeZone: string): number {
  const today = calendarDay(nowMs, timeZone);
  let before = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  let after = before + STEP_MS;
  while (calendarDay(after, timeZone) === today && after - nowMs < MAX_DAY_MS) {
    before = after;
    after += STEP_MS;
  }
  for (let minute = before + MINUTE_MS; minute <= after; minute += MINUTE_MS) {
    if (calendarDay(minute, timeZone) !== today) return minute;
  }
  return after;
}

/** Remembers the current day and its end, so the request path formats a date once a day, not per request. */
export class CalendarDayClock {
  readonly #timeZone: string;
  #day = '';
  #endMs = -Infinity;

  constructor(timeZone: string) {
    this.#timeZone = timeZone;
  }

  /** The day of `nowMs` and the instant it ends. */
  at(nowMs: number): { day: string; endMs: number } {
    if (nowMs >= this.#endMs || nowMs < this.#endMs - MAX_DAY_MS) {
      this.#day = calendarDay(nowMs, this.#timeZone);
      this.#endMs = nextDayStartMs(nowMs, this.#timeZone);
    }
    return { day: this.#day, endMs: this.#endMs };
  }
}
