/**
 * Local wall-clock time from a time zone's UTC offset, which is looked up
 * once per UTC minute and zone (two Intl calls) instead of once per call
 * (Intl formatToParts costs about as much as the rest of a calculation). The
 * last MAX_MINUTES minutes looked up per zone are remembered, so calculations
 * that go back and forth in time (the forecast's hourly projection, a replay)
 * pay for each minute once.
 * tzdata changes offsets at whole seconds and never twice within a minute, so
 * an offset that is the same at the minute's first and last whole second
 * holds for the whole minute; a minute with a change in it, and years Intl
 * writes differently (before 1000 or after 9999), take the exact path.
 */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type ExactParts = (nowMs: number, timeZone: string) => LocalDateTime;

const MINUTE_MS = 60_000;
const SECOND_MS = 1000;
/** The span in which Date's UTC fields and Intl's en-US year agree (four-digit years, no era). */
const FAST_FROM_MS = Date.UTC(1000, 0, 2);
const FAST_UNTIL_MS = Date.UTC(9999, 11, 30);
/** Zones remembered at once; a daemon uses one or two. */
const MAX_ZONES = 64;

/** Minutes remembered per zone before the zone's list starts again (a few dozen KB). */
const MAX_MINUTES = 1024;
/** A minute in which the offset changes. */
const CHANGING = null;

function offsetAt(instantMs: number, timeZone: string, exact: ExactParts): number {
  const t = exact(instantMs, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - instantMs;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The UTC calendar fields of an instant, as Date's getUTC… give them, by integer arithmetic
 * (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", civil_from_days): no Date object.
 */
export function utcParts(ms: number): LocalDateTime {
  const days = Math.floor(ms / DAY_MS);
  const msOfDay = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: dayOfYear - Math.floor((153 * mp + 2) / 5) + 1,
    hour: Math.floor(msOfDay / HOUR_MS),
    minute: Math.floor((msOfDay % HOUR_MS) / MINUTE_MS),
    second: Math.floor((msOfDay % MINUTE_MS) / SECOND_MS),
  };
}

export class LocalTimeCache {
  readonly #exact: ExactParts;
  /** Per zone: UTC minute -> the offset in that minute, or CHANGING. */
  readonly #offsets = new Map<string, Map<number, number | typeof CHANGING>>();

  constructor(exact: ExactParts) {
    this.#exact = exact;
  }

  /** The same parts `exact` returns for `nowMs` in `timeZone`; throws what `exact` throws (an unknown zone). */
  partsAt(nowMs: number, timeZone: string): LocalDateTime {
    if (!(nowMs >= FAST_FROM_MS && nowMs < FAST_UNTIL_MS)) return this.#exact(nowMs, timeZone);
    const offsetMs = this.#offsetFor(Math.floor(nowMs / MINUTE_MS), timeZone);
    if (offsetMs === undefined) return this.#exact(nowMs, timeZone);
    return utcParts(nowMs + offsetMs);
  }

  #offsetFor(minute: number, timeZone: string): number | undefined {
    const minutes = this.#offsets.get(timeZone) ?? this.#newZone(timeZone);
    const cached = minutes.get(minute);
    if (cached !== undefined) return cached ?? undefined;
    const startMs = minute * MINUTE_MS;
    const first = offsetAt(startMs, timeZone, this.#exact);
    const last = offsetAt(startMs + MINUTE_MS - SECOND_MS, timeZone, this.#exact);
    if (minutes.size >= MAX_MINUTES) minutes.clear();
    minutes.set(minute, first === last ? first : CHANGING);
    return first === last ? first : undefined;
  }

  #newZone(timeZone: string): Map<number, number | typeof CHANGING> {
    if (this.#offsets.size >= MAX_ZONES) this.#offsets.clear();
    const minutes = new Map<number, number | typeof CHANGING>();
    this.#offsets.set(timeZone, minutes);
    return minutes;
  }
}
