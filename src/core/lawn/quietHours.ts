/**
 * Quiet hours for the `mowable` flag (never the index), pure: a night ban from some minutes before sunset
 * to some minutes after sunrise (hedgehogs and other nocturnal animals are out at dusk; several German
 * municipalities ban robot mowers at night), and optional noise hours in local time, on Sundays and
 * public holidays too (the holiday dates come in as data).
 */
import { localDateTime } from '../season.js';
import { sunDay } from './sun.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
export const QUIET_HOURS_CODE = 'quiet_hours';

export interface QuietHoursSettings {
  /** Night ban on/off. */
  night: boolean;
  /** Minutes before sunset the ban starts and after sunrise it ends. */
  marginMinutes: number;
  /** Local noise hours as minutes of the day [from, to), may wrap midnight; null: none. */
  noise: { fromMin: number; toMin: number } | null;
  /** No mowing all Sunday (local time). */
  sundays: boolean;
  timeZone: string;
  /** Public holidays: local date "YYYY-MM-DD" → name, quiet all day (computed by src/lawn/holidays.ts); absent: none. */
  holidays?: ReadonlyMap<string, string>;
}

export interface Location {
  latitude: number;
  longitude: number;
}

/** "20:00-07:00" → minutes of the day; throws with a message naming the expected form. */
export function parseNoiseHours(text: string): { fromMin: number; toMin: number } | null {
  if (text.trim() === '') return null;
  const match = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  const toMin = (h: string, m: string) => {
    const hours = Number(h);
    const minutes = Number(m);
    if (hours > 24 || minutes > 59 || (hours === 24 && minutes > 0)) throw new Error(`"${h}:${m}" is not a time of day`);
    return hours * 60 + minutes;
  };
  if (!match) throw new Error('must be empty or a local time range "HH:MM-HH:MM", e.g. "20:00-07:00"');
  const range = { fromMin: toMin(match[1]!, match[2]!), toMin: toMin(match[3]!, match[4]!) };
  if (range.fromMin === range.toMin) throw new Error('must not start and end at the same time');
  return range;
}

function clock(ms: number, timeZone: string): string {
  const local = localDateTime(ms, timeZone);
  return `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`;
}

/** The night ban's reason at `nowMs`, or undefined outside it. */
export function nightBan(nowMs: number, location: Location, marginMinutes: number, timeZone: string): string | undefined {
  const margin = marginMinutes * MINUTE_MS;
  // The night may have begun on the previous UTC day or end on the next: look at three days.
  for (const offset of [-1, 0, 1]) {
    const day = sunDay(nowMs + offset * DAY_MS, location.latitude, location.longitude);
    if (day.kind === 'polar_night' && offset === 0) return 'quiet hours: polar night (the sun does not rise today)';
    if (day.kind !== 'normal') continue;
    const next = sunDay(nowMs + (offset + 1) * DAY_MS, location.latitude, location.longitude);
    const nextSunrise = next.kind === 'normal' ? next.sunriseMs : day.sunriseMs + DAY_MS;
    const from = day.sunsetMs - margin;
    const to = nextSunrise + margin;
    if (nowMs >= from && nowMs < to) {
      return `quiet hours: night ban from ${clock(from, timeZone)} (${marginMinutes} min before sunset) to ${clock(to, timeZone)} (${marginMinutes} min after sunrise)`;
    }
  }
  return undefined;
}

function inNoiseHours(minuteOfDay: number, noise: { fromMin: number; toMin: number }): boolean {
  return noise.fromMin < noise.toMin
    ? minuteOfDay >= noise.fromMin && minuteOfDay < noise.toMin
    : minuteOfDay >= noise.fromMin || minuteOfDay < noise.toMin;
}

function weekday(local: { year: number; month: number; day: number }): number {
  return new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
}

/** Why mowing is not allowed now (one sentence), or undefined. Night ban first, then noise hours, then Sunday. */
export function quietHoursReason(nowMs: number, location: Location | undefined, settings: QuietHoursSettings): string | undefined {
  if (settings.night && location) {
    const night = nightBan(nowMs, location, settings.marginMinutes, settings.timeZone);
    if (night) return night;
  }
  const local = localDateTime(nowMs, settings.timeZone);
  if (settings.noise && inNoiseHours(local.hour * 60 + local.minute, settings.noise)) {
    const fmt = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    return `quiet hours: noise hours ${fmt(settings.noise.fromMin)}–${fmt(settings.noise.toMin)}`;
  }
  if (settings.sundays && weekday(local) === 0) return 'quiet hours: Sunday';
  return holidayReason(local, settings.holidays);
}

/** The holiday's reason when the local date is one, else undefined. */
function holidayReason(local: { year: number; month: number; day: number }, holidays: ReadonlyMap<string, string> | undefined): string | undefined {
  const pad = (n: number) => String(n).padStart(2, '0');
  const name = holidays?.get(`${local.year}-${pad(local.month)}-${pad(local.day)}`);
  return name === undefined ? undefined : `quiet hours: public holiday (${name})`;
}
