/**
 * Durations in German reason texts, in natural units: „45 Minuten“, „2,5 Stunden“, „3 Tagen“ — never
 * „333,3 Stunden“. One formatter for every text the core writes, so HTTP, MQTT and the status page,
 * which all render the core's reasons, phrase the same fact alike. Pure.
 */
import { formatNumberDe } from './format.js';

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 1440;
/** Up to this many minutes a duration is said in minutes. */
export const MINUTES_UP_TO = 90;
/** Below this many hours a duration is said in hours (one decimal under 10 h), from it on in days. */
export const HOURS_BELOW = 48;

function plural(value: string, one: string, many: string): string {
  return `${value} ${value === '1' ? one : many}`;
}

/**
 * A duration in minutes as German words; `dative` for „vor …“ and „seit …“ (Tagen), else nominative
 * (Tage). Negative or non-finite durations count as 0 minutes.
 */
export function durationDe(minutes: number, dative = false): string {
  const m = Number.isFinite(minutes) ? Math.max(0, minutes) : 0;
  if (m <= MINUTES_UP_TO) return plural(formatNumberDe(m, 0), 'Minute', 'Minuten');
  const hours = m / MINUTES_PER_HOUR;
  if (hours < HOURS_BELOW) return plural(formatNumberDe(hours, hours < 10 ? 1 : 0), 'Stunde', 'Stunden');
  return plural(formatNumberDe(m / MINUTES_PER_DAY, 0), 'Tag', dative ? 'Tagen' : 'Tage');
}

/** „vor 3 Tagen“, „vor 45 Minuten“. */
export function agoDe(minutes: number): string {
  return `vor ${durationDe(minutes, true)}`;
}
