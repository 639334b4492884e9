/**
 * Payload timestamps: rtl_433 local "YYYY-MM-DD HH:MM:SS" (in the configured
 * time zone), ISO 8601, Unix seconds or milliseconds. Pure: the time zone and
 * the arrival time are parameters.
 */

import { localDateTime } from '../core/index.js';

export const MAX_READING_AGE_MS = 14 * 24 * 3_600_000;
export const MAX_FUTURE_SKEW_MS = 2 * 60_000;

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const ZONED_PATTERN = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;
/** Before 2001-09-09 as seconds: not a wall-clock time (e.g. an uptime counter). */
const MIN_UNIX_SECONDS = 1_000_000_000;
/** After the year 9999 (ms): not a time at all; also keeps Date from going invalid. */
const MAX_EPOCH_MS = 253_402_300_799_999;

/** Offset of `timeZone` from UTC at instant `epochMs`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const wall = localDateTime(epochMs, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return wallAsUtc - Math.floor(epochMs / 1000) * 1000;
}

/** Epoch ms of a wall-clock time in `timeZone` (the earlier instant when a DST change repeats it). */
export function localTimeToEpochMs(
  wall: { year: number; month: number; day: number; hour: number; minute: number; second: number; ms?: number },
  timeZone: string,
): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.ms ?? 0);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  const second = asUtc - zoneOffsetMs(first, timeZone);
  return Math.min(first, second);
}

function fromEpochNumber(value: number): number | undefined {
  if (!Number.isFinite(value) || value < MIN_UNIX_SECONDS) return undefined;
  const ms = value >= 1e12 ? Math.round(value) : Math.round(value * 1000);
  return ms <= MAX_EPOCH_MS ? ms : undefined;
}

function plausibleDate(ms: number): number | undefined {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_EPOCH_MS ? ms : undefined;
}

/**
 * Epoch ms for a payload timestamp, or undefined when the value is not a
 * wall-clock time (rtl_433 "@0.08s" sample offsets, garbage).
 */
export function parseTimestamp(raw: unknown, timeZone: string): number | undefined {
  if (typeof raw === 'number') return fromEpochNumber(raw);
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return fromEpochNumber(Number(text));
  const local = LOCAL_PATTERN.exec(text);
  if (local) {
    const [, year, month, day, hour, minute, second, fraction] = local;
    const wall = {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second),
      ms: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
    };
    if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > 31 || wall.hour > 23 || wall.minute > 59 || wall.second > 60) {
      return undefined;
    }
    return plausibleDate(localTimeToEpochMs(wall, timeZone));
  }
  if (ZONED_PATTERN.test(text)) {
    return plausibleDate(Date.parse(text.replace(' ', 'T')));
  }
  return undefined;
}

export type ReadingTime = { ok: true; timeMs: number; source: 'payload' | 'arrival' } | { ok: false; reason: string };

/**
 * The reading's time: the payload's when present, else the arrival; refuses stale or future
 * readings. `clockUnsynchronised`: our own clock is known not to be NTP-set yet, so a payload
 * time ahead of it says more about our clock than about the station's: the reading is kept,
 * at its arrival time, instead of being refused.
 */
export function resolveReadingTime(payloadTimeMs: number | undefined, arrivalMs: number, clockUnsynchronised = false): ReadingTime {
  if (payloadTimeMs === undefined) return { ok: true, timeMs: arrivalMs, source: 'arrival' };
  if (plausibleDate(payloadTimeMs) === undefined) return { ok: false, reason: 'timestamp is not a valid time' };
  if (payloadTimeMs > arrivalMs + MAX_FUTURE_SKEW_MS && clockUnsynchronised) return { ok: true, timeMs: arrivalMs, source: 'arrival' };
  if (payloadTimeMs > arrivalMs + MAX_FUTURE_SKEW_MS) {
    return { ok: false, reason: `timestamp ${new Date(payloadTimeMs).toISOString()} is more than 2 minutes in the future` };
  }
  if (payloadTimeMs < arrivalMs - MAX_READING_AGE_MS) {
    return { ok: false, reason: `timestamp ${new Date(payloadTimeMs).toISOString()} is more than 14 days old` };
  }
  return { ok: true, timeMs: payloadTimeMs, source: 'payload' };
}
