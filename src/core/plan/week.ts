/**
 * The plan's week: local Monday 00:00 to the next, in the station's time zone (pure). The need, the
 * planned minutes and the driver's weekly budget all count over this span; the minutes of slots in a span.
 */
import { localDateTime } from '../season.js';
import type { Span } from './placement.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Local wall time at `ms` minus `ms` (the zone's UTC offset). */
function offsetMs(ms: number, timeZone: string): number {
  const t = localDateTime(ms, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant of local midnight starting the local date (year, month, day) in `timeZone`. */
function localMidnightMs(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  // Two passes: the offset at the first guess may differ from the one at the answer (a DST change that night).
  let ms = wall - offsetMs(wall, timeZone);
  ms = wall - offsetMs(ms, timeZone);
  return ms;
}

/** [start, end) of the local week (Monday 00:00 to the next Monday 00:00) that contains `nowMs`. */
export function weekSpan(nowMs: number, timeZone: string): { startMs: number; endMs: number } {
  const t = localDateTime(nowMs, timeZone);
  const weekday = new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay(); // 0 Sunday
  const back = (weekday + 6) % 7;
  const monday = new Date(Date.UTC(t.year, t.month - 1, t.day - back));
  const next = new Date(Date.UTC(t.year, t.month - 1, t.day - back + 7));
  const startMs = localMidnightMs(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), timeZone);
  const endMs = localMidnightMs(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
  return { startMs, endMs: endMs > startMs ? endMs : startMs + 7 * DAY_MS };
}

/** Minutes of `slots` within [fromMs, toMs). */
export function minutesIn(slots: readonly Span[], fromMs: number, toMs: number): number {
  let total = 0;
  for (const slot of slots) total += Math.max(0, Math.min(slot.endMs, toMs) - Math.max(slot.startMs, fromMs));
  return total / MINUTE_MS;
}

/** Minutes still to mow in the slots that start (or, started, go on) in [fromMs, toMs) from `nowMs`. */
export function futureMinutes(slots: readonly Span[], nowMs: number, fromMs: number, toMs: number): number {
  let total = 0;
  for (const slot of slots) {
    const from = Math.max(slot.startMs, nowMs);
    if (slot.endMs > nowMs && from >= fromMs && from < toMs) total += (slot.endMs - from) / MINUTE_MS;
  }
  return total;
}
