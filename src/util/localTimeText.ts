/**
 * An instant as a person reads it on the configured clock: `YYYY-MM-DD HH:MM:SS +HH:MM` in the
 * time zone `timezone` names (the offset said, so the line stays exact across a change to or from
 * summer time and when read from another zone). For the command line's texts; JSON keeps ISO UTC.
 */
import { formatLocalDateTime, localDateTime } from '../core/index.js';

/** `+HH:MM` / `-HH:MM` of a local time `offsetMinutes` ahead of UTC. */
function offsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function localTimeText(ms: number, timeZone: string): string {
  const local = localDateTime(ms, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const offsetMinutes = Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
  return `${formatLocalDateTime(local)} ${offsetText(offsetMinutes)}`;
}

/** localTimeText of an ISO time (as the status report holds them). */
export function localIsoText(iso: string, timeZone: string): string {
  return localTimeText(Date.parse(iso), timeZone);
}
