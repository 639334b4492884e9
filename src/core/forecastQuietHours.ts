/**
 * Quiet hours for the forecast's windows, asked at every 5-minute step of 48 hours on every rebuild
 * (./forecastWindows.ts): the same answer as `quietHoursCause(ms, location, settings) === undefined`
 * (./lawn/quietHours.ts), remembered where it cannot differ. Asking the cause afresh cost ~9 ms per
 * rebuild (bench/NOTES.md, "Forecast part"): two time-zone lookups and up to six sunrise
 * calculations per instant, and the ~1,150 distinct minutes of a horizon overran the core's local
 * time cache, so each rebuild asked Intl again. Two parts, each kept exact:
 *
 * - the night ban comes from the sun of whole UTC days, so its spans are kept per UTC day and
 *   location (./lawn/quietHours.ts `nightSpans`) and each instant is compared with them;
 * - noise hours, Sundays and holidays depend only on the local date and time to the minute, so the
 *   answer is kept per UTC minute when the minute's first and last millisecond have the same local
 *   fields (the offset did not change within it; tzdata never changes it twice within a minute,
 *   ./localTime.ts), else asked afresh. The holiday days are data that is filled in once at start:
 *   a change of their number forgets what was kept.
 *
 * Bounded: a direct-mapped table of MINUTE_SLOTS minutes (a little more than the 48-hour horizon)
 * and NIGHT_DAYS UTC days per location.
 */
import { localDateTime } from './season.js';
import {
  fromZone,
  localQuietCause,
  nightCauseIn,
  nightSpans,
  type Location,
  type NightSpan,
  type QuietCause,
  type QuietHoursSettings,
} from './lawn/quietHours.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Minutes remembered (a power of two above the 2,880 minutes of 48 hours). */
const MINUTE_SLOTS = 4096;
/** UTC days of night spans remembered per location (the horizon touches three). */
const NIGHT_DAYS = 8;
const UNKNOWN = 0;
const ALLOWED = 1;
const QUIET = 2;

export class QuietHoursTimeline {
  readonly #settings: QuietHoursSettings;
  readonly #minutes = new Float64Array(MINUTE_SLOTS).fill(Number.NaN);
  readonly #answers = new Uint8Array(MINUTE_SLOTS);
  readonly #nights = new WeakMap<Location, Map<number, NightSpan[]>>();
  #holidays: number;

  constructor(settings: QuietHoursSettings) {
    this.#settings = settings;
    this.#holidays = settings.holidays?.size ?? 0;
  }

  /** Whether quiet hours allow mowing at `ms` at `location` (undefined: the time zone's reference point, or no night ban without one, as quietHoursCause). */
  allowedAt(ms: number, location: Location | undefined): boolean {
    const settings = this.#settings;
    const sunAt = location ?? settings.zoneLocation;
    if (settings.night && sunAt && nightCauseIn(this.#nightSpans(ms, sunAt), ms, settings.marginMinutes) !== undefined) return false;
    return this.#localAllows(ms);
  }

  /**
   * The cause `quietHoursCause(ms, location, settings)` gives, and the first instant after `ms` at which
   * it could be a different one (`untilMs`): the same cause holds for every instant in [ms, untilMs).
   * The edges are the night spans' starts and ends and the end of their UTC day, and the next local
   * noise-hour boundary or midnight (Sundays, holidays) at the offset in force at `ms`; when the
   * offset changes before that edge (a DST change), the end of the UTC minute or, within a minute whose
   * offset changes, `ms + 1`.
   */
  causeUntil(ms: number, location: Location | undefined): { cause: QuietCause | undefined; untilMs: number } {
    const settings = this.#settings;
    let untilMs = Number.POSITIVE_INFINITY;
    const sunAt = location ?? settings.zoneLocation;
    if (settings.night && sunAt) {
      const spans = this.#nightSpans(ms, sunAt);
      untilMs = nextNightEdge(spans, ms);
      const night = nightCauseIn(spans, ms, settings.marginMinutes);
      if (night !== undefined) return { cause: location ? night : fromZone(night, settings.zoneLocation), untilMs };
    }
    return { cause: localQuietCause(ms, settings), untilMs: Math.min(untilMs, nextLocalEdge(ms, settings)) };
  }

  #nightSpans(ms: number, location: Location): NightSpan[] {
    let days = this.#nights.get(location);
    if (days === undefined) {
      days = new Map();
      this.#nights.set(location, days);
    }
    const day = Math.floor(ms / DAY_MS);
    let spans = days.get(day);
    if (spans === undefined) {
      spans = nightSpans(ms, location, this.#settings.marginMinutes);
      if (days.size >= NIGHT_DAYS) days.delete(days.keys().next().value as number);
      days.set(day, spans);
    }
    return spans;
  }

  /** Noise hours, Sundays and holidays (the cause without a location has no night ban). */
  #localAllows(ms: number): boolean {
    const settings = this.#settings;
    const holidays = settings.holidays?.size ?? 0;
    if (holidays !== this.#holidays) {
      this.#holidays = holidays;
      this.#answers.fill(UNKNOWN);
    }
    const minute = Math.floor(ms / MINUTE_MS);
    const slot = minute & (MINUTE_SLOTS - 1);
    if (this.#minutes[slot] === minute && this.#answers[slot] !== UNKNOWN) return this.#answers[slot] === ALLOWED;
    const allowed = localQuietCause(ms, settings) === undefined;
    if (sameLocalMinute(minute * MINUTE_MS, minute * MINUTE_MS + MINUTE_MS - 1, settings.timeZone)) {
      this.#minutes[slot] = minute;
      this.#answers[slot] = allowed ? ALLOWED : QUIET;
    }
    return allowed;
  }
}

/** The first start or end of a span after `ms`, or the end of ms's UTC day (the spans are that day's). */
function nextNightEdge(spans: readonly NightSpan[], ms: number): number {
  let edge = (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
  for (const span of spans) {
    if (span.kind !== 'night') continue;
    if (span.fromMs > ms && span.fromMs < edge) edge = span.fromMs;
    if (span.toMs > ms && span.toMs < edge) edge = span.toMs;
  }
  return edge;
}

/** Local wall time at `ms` minus `ms` (the UTC offset), to the second. */
function offsetAt(ms: number, timeZone: string): number {
  const t = localDateTime(ms, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The first instant after `ms` at which noise hours, Sundays or holidays could answer differently: the
 * next local noise boundary or midnight. tzdata does not change a zone's offset twice within a day, so
 * an offset equal at `ms` and just before that instant held throughout.
 */
function nextLocalEdge(ms: number, settings: QuietHoursSettings): number {
  const local = localDateTime(ms, settings.timeZone);
  const minuteOfDay = local.hour * 60 + local.minute;
  let next = 1440;
  const later = (boundary: number) => (boundary > minuteOfDay ? boundary : boundary + 1440);
  if (settings.noise) next = Math.min(next, later(settings.noise.fromMin), later(settings.noise.toMin));
  const offset = offsetAt(ms, settings.timeZone);
  const edgeMs = Date.UTC(local.year, local.month - 1, local.day) + next * MINUTE_MS - offset;
  if (edgeMs > ms && offsetAt(edgeMs - 1, settings.timeZone) === offset) return edgeMs;
  const minuteEndMs = (Math.floor(ms / MINUTE_MS) + 1) * MINUTE_MS;
  return sameLocalMinute(minuteEndMs - MINUTE_MS, minuteEndMs - 1, settings.timeZone) ? minuteEndMs : ms + 1;
}

function sameLocalMinute(firstMs: number, lastMs: number, timeZone: string): boolean {
  const a = localDateTime(firstMs, timeZone);
  const b = localDateTime(lastMs, timeZone);
  return a.minute === b.minute && a.hour === b.hour && a.day === b.day && a.month === b.month && a.year === b.year;
}
