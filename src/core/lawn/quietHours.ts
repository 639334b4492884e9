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
  /** The same days' German names (for the German reason); absent: the English name. */
  holidayNamesDe?: ReadonlyMap<string, string>;
  /**
   * The night ban's sun for a station without a location of its own: the configured time zone's
   * reference point in the tz database (src/lawn/zoneLocation.ts); absent: such a station has no night ban.
   */
  zoneLocation?: ZoneLocation;
}

export interface Location {
  latitude: number;
  longitude: number;
}

/** A time zone's reference point (its principal city in the tz database's zone table). */
export interface ZoneLocation extends Location {
  zone: string;
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

/** Why quiet hours hold mowing off: the cause, from which the English and German sentences are made. */
export type QuietCause =
  | { kind: 'polar_night'; zone?: ZoneLocation }
  /** `zone`: the sun times are the time zone's reference point's (the station has no location). */
  | { kind: 'night'; fromMs: number; toMs: number; marginMinutes: number; zone?: ZoneLocation }
  | { kind: 'noise'; fromMin: number; toMin: number }
  | { kind: 'sunday' }
  | { kind: 'holiday'; name: string; nameDe: string };

/** A night ban that can hold on a UTC day: the whole day (polar night) or one night's span [fromMs, toMs). */
export type NightSpan = { kind: 'polar_night' } | { kind: 'night'; fromMs: number; toMs: number };

/**
 * The night ban's spans for the instants of the UTC day of `dayMs`, in the order nightCause looks at them:
 * the same for every instant of that day (each night comes from the sun of whole UTC days).
 */
export function nightSpans(dayMs: number, location: Location, marginMinutes: number): NightSpan[] {
  const margin = marginMinutes * MINUTE_MS;
  const spans: NightSpan[] = [];
  // The night may have begun on the previous UTC day or end on the next: look at three days.
  for (const offset of [-1, 0, 1]) {
    const day = sunDay(dayMs + offset * DAY_MS, location.latitude, location.longitude);
    if (day.kind === 'polar_night' && offset === 0) {
      spans.push({ kind: 'polar_night' });
      break;
    }
    if (day.kind !== 'normal') continue;
    const next = sunDay(dayMs + (offset + 1) * DAY_MS, location.latitude, location.longitude);
    const nextSunrise = next.kind === 'normal' ? next.sunriseMs : day.sunriseMs + DAY_MS;
    spans.push({ kind: 'night', fromMs: day.sunsetMs - margin, toMs: nextSunrise + margin });
  }
  return spans;
}

/** The night ban's cause at `nowMs` among the day's spans (./nightSpans), or undefined outside them. */
export function nightCauseIn(spans: readonly NightSpan[], nowMs: number, marginMinutes: number): QuietCause | undefined {
  for (const span of spans) {
    if (span.kind === 'polar_night') return { kind: 'polar_night' };
    if (nowMs >= span.fromMs && nowMs < span.toMs) return { kind: 'night', fromMs: span.fromMs, toMs: span.toMs, marginMinutes };
  }
  return undefined;
}

/** The night ban's cause at `nowMs`, or undefined outside it. */
export function nightCause(nowMs: number, location: Location, marginMinutes: number): QuietCause | undefined {
  return nightCauseIn(nightSpans(nowMs, location, marginMinutes), nowMs, marginMinutes);
}

/** The night ban's reason at `nowMs`, or undefined outside it. */
export function nightBan(nowMs: number, location: Location, marginMinutes: number, timeZone: string): string | undefined {
  const cause = nightCause(nowMs, location, marginMinutes);
  return cause && quietCauseText(cause, 'en', timeZone);
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * The cause in one sentence: English for `mowable_reason` and the log, German for `mowable_reason_de`
 * (the language of the model's reasons). `hideTimes`: the night ban without its clock times (they are
 * the station's sunset and sunrise, which locate it).
 */
export function quietCauseText(cause: QuietCause, lang: 'en' | 'de', timeZone: string, hideTimes = false): string {
  const text = quietCauseSentence(cause, lang, timeZone, hideTimes);
  if ((cause.kind !== 'night' && cause.kind !== 'polar_night') || cause.zone === undefined) return text;
  return `${text}, ${zoneSunText(cause.zone, lang)}`;
}

/** "52.5° N, 13.37° E" (German: decimal comma, "O" for east). */
export function coordinatesText(location: Location, lang: 'en' | 'de'): string {
  const de = lang === 'de';
  const number = (value: number) => (de ? String(Math.round(value * 100) / 100).replace('.', ',') : String(Math.round(value * 100) / 100));
  const ns = `${number(Math.abs(location.latitude))}° ${location.latitude >= 0 ? 'N' : 'S'}`;
  const ew = `${number(Math.abs(location.longitude))}° ${location.longitude >= 0 ? (de ? 'O' : 'E') : 'W'}`;
  return `${ns}, ${ew}`;
}

/** Where the night ban's sun times come from when the station has no location. */
export function zoneSunText(zone: ZoneLocation, lang: 'en' | 'de'): string {
  return lang === 'de'
    ? `Sonnenzeiten am Bezugsort der Zeitzone ${zone.zone} (${coordinatesText(zone, 'de')}), da die Station keinen Standort hat`
    : `sun times at the reference point of the time zone ${zone.zone} (${coordinatesText(zone, 'en')}), as the station has no location`;
}

function quietCauseSentence(cause: QuietCause, lang: 'en' | 'de', timeZone: string, hideTimes: boolean): string {
  const de = lang === 'de';
  switch (cause.kind) {
    case 'polar_night':
      return de ? 'Ruhezeit: Polarnacht (die Sonne geht heute nicht auf)' : 'quiet hours: polar night (the sun does not rise today)';
    case 'night': {
      const m = cause.marginMinutes;
      if (hideTimes) {
        return de
          ? `Ruhezeit: Nachtverbot (von ${m} Min. vor Sonnenuntergang bis ${m} Min. nach Sonnenaufgang)`
          : `quiet hours: night ban (from ${m} min before sunset to ${m} min after sunrise)`;
      }
      const from = clock(cause.fromMs, timeZone);
      const to = clock(cause.toMs, timeZone);
      return de
        ? `Ruhezeit: Nachtverbot von ${from} (${m} Min. vor Sonnenuntergang) bis ${to} (${m} Min. nach Sonnenaufgang)`
        : `quiet hours: night ban from ${from} (${m} min before sunset) to ${to} (${m} min after sunrise)`;
    }
    case 'noise':
      return `${de ? 'Ruhezeit: Lärmschutzzeit' : 'quiet hours: noise hours'} ${hhmm(cause.fromMin)}–${hhmm(cause.toMin)}`;
    case 'sunday':
      return de ? 'Ruhezeit: Sonntag' : 'quiet hours: Sunday';
    case 'holiday':
      return de ? `Ruhezeit: Feiertag (${cause.nameDe})` : `quiet hours: public holiday (${cause.name})`;
  }
}

function inNoiseHours(minuteOfDay: number, noise: { fromMin: number; toMin: number }): boolean {
  return noise.fromMin < noise.toMin
    ? minuteOfDay >= noise.fromMin && minuteOfDay < noise.toMin
    : minuteOfDay >= noise.fromMin || minuteOfDay < noise.toMin;
}

function weekday(local: { year: number; month: number; day: number }): number {
  return new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
}

/** Why mowing is not allowed now, or undefined. Night ban first, then noise hours, then Sunday, then a public holiday. */
export function quietHoursCause(nowMs: number, location: Location | undefined, settings: QuietHoursSettings): QuietCause | undefined {
  const sunAt = location ?? settings.zoneLocation;
  if (settings.night && sunAt) {
    const night = nightCause(nowMs, sunAt, settings.marginMinutes);
    if (night) return location ? night : fromZone(night, settings.zoneLocation);
  }
  return localQuietCause(nowMs, settings);
}

/** The night ban's cause with the time zone's reference point it took the sun from. */
export function fromZone(night: QuietCause, zone: ZoneLocation | undefined): QuietCause {
  return zone !== undefined && (night.kind === 'night' || night.kind === 'polar_night') ? { ...night, zone } : night;
}

/** Noise hours, Sunday or a public holiday at `nowMs` (the causes of the local clock and calendar), or undefined. */
export function localQuietCause(nowMs: number, settings: QuietHoursSettings): QuietCause | undefined {
  const local = localDateTime(nowMs, settings.timeZone);
  if (settings.noise && inNoiseHours(local.hour * 60 + local.minute, settings.noise)) return { kind: 'noise', ...settings.noise };
  if (settings.sundays && weekday(local) === 0) return { kind: 'sunday' };
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  const name = settings.holidays?.get(day);
  return name === undefined ? undefined : { kind: 'holiday', name, nameDe: settings.holidayNamesDe?.get(day) ?? name };
}

/** Why mowing is not allowed now (one English sentence), or undefined. */
export function quietHoursReason(nowMs: number, location: Location | undefined, settings: QuietHoursSettings): string | undefined {
  const cause = quietHoursCause(nowMs, location, settings);
  return cause && quietCauseText(cause, 'en', settings.timeZone);
}
