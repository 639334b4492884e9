import { LocalTimeCache, type LocalDateTime } from './localTime.js';
import type { Hemisphere, Season } from './types.js';
import { SEASONS } from './vocabulary.js';

export type { LocalDateTime };

export function isSeason(value: unknown): value is Season {
  return typeof value === 'string' && (SEASONS as readonly string[]).includes(value);
}

const FALLBACK_TIME_ZONE = 'UTC';
// Building an Intl formatter is costly; the cache holds no state that changes an output.
const formatterCache = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const cached = formatterCache.get(timeZone);
  if (cached !== undefined) return cached;
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  if (formatterCache.size > 64) formatterCache.clear();
  formatterCache.set(timeZone, formatter);
  return formatter;
}

// formatToParts dominates a calculation's cost: the offset cache calls it twice per zone and UTC minute.
// Callers get a fresh object, so the cache cannot be changed from outside.
const localTimes = new LocalTimeCache(formatParts);

function partsIn(nowMs: number, timeZone: string): LocalDateTime {
  return localTimes.partsAt(nowMs, timeZone);
}

function formatParts(nowMs: number, timeZone: string): LocalDateTime {
  const date = new Date(nowMs);
  const parts = formatterFor(timeZone).formatToParts(date);
  const pick = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: pick('year'),
    month: pick('month'),
    day: pick('day'),
    hour: pick('hour') % 24,
    minute: pick('minute'),
    second: pick('second'),
  };
}

/**
 * Local date and time in `timeZone`; an invalid time zone falls back to UTC
 * and an invalid instant to the epoch, so this never throws.
 */
export function localDateTime(nowMs: number, timeZone: string): LocalDateTime {
  const instant = Number.isFinite(nowMs) && Math.abs(nowMs) <= 8.64e15 ? nowMs : 0;
  try {
    if (typeof timeZone === 'string' && timeZone.length > 0) return partsIn(instant, timeZone);
  } catch {
    // RangeError for an unknown time zone: fall through to UTC.
  }
  return partsIn(instant, FALLBACK_TIME_ZONE);
}

/** Meteorological season of a month (1–12); the southern hemisphere is shifted by six months. */
export function seasonForMonth(month: number, hemisphere: Hemisphere): Season {
  const northernMonth = hemisphere === 'south' ? ((month + 5) % 12) + 1 : month;
  if (northernMonth >= 3 && northernMonth <= 5) return 'spring';
  if (northernMonth >= 6 && northernMonth <= 8) return 'summer';
  if (northernMonth >= 9 && northernMonth <= 11) return 'autumn';
  return 'winter';
}

/** Season at `nowMs`, from the month in `timeZone` (UTC when the zone is invalid). */
export function seasonFor(nowMs: number, timeZone: string, hemisphere: Hemisphere): Season {
  return seasonForMonth(localDateTime(nowMs, timeZone).month, hemisphere);
}

/** "00" … "99", built once: the two-digit fields of calculated_at are looked up, not formatted. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : `${i}`));

/** Zero-padded; the common cases (two digits, a four-digit year) without padStart. */
function pad(value: number, width = 2): string {
  if (width === 2) {
    const text = TWO_DIGITS[value];
    if (text !== undefined) return text;
  }
  if (width === 4 && value >= 1000 && value < 10_000) return `${value}`;
  if (value >= 10 ** (width - 1) && value < 10 ** width) return `${value}`;
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD HH:MM:SS` in `timeZone` (UTC when the zone is invalid). */
export function formatCalculatedAt(nowMs: number, timeZone: string): string {
  return formatLocalDateTime(localDateTime(nowMs, timeZone));
}

/**
 * The last minute written (`YYYY-MM-DD HH:MM:`) and its fields: calculations come in bursts within a
 * minute (a reading for every station, a run of requests), and then only the seconds are new.
 */
const lastMinute = { year: Number.NaN, month: 0, day: 0, hour: 0, minute: 0, text: '' };

export function formatLocalDateTime(t: LocalDateTime): string {
  const m = lastMinute;
  if (t.minute !== m.minute || t.hour !== m.hour || t.day !== m.day || t.month !== m.month || t.year !== m.year) {
    m.text = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:`;
    m.year = t.year;
    m.month = t.month;
    m.day = t.day;
    m.hour = t.hour;
    m.minute = t.minute;
  }
  return `${m.text}${pad(t.second)}`;
}
