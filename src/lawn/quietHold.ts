/**
 * The lawn memory's quiet-hours hold per station (the `mowable` flag held off at night, in noise hours,
 * on Sundays and holidays), remembered with the instant until which it cannot change.
 *
 * Asked afresh, every reading's recompute paid for the night ban's sunrises and sunsets and for two
 * time-zone lookups and four reason texts, although the answer changes a few times a day. The
 * timeline (../core/forecastQuietHours.ts, `causeUntil`, whose night spans per UTC day are the ones the
 * forecast's windows use) gives the cause and the next instant it could differ (a night edge, a noise
 * boundary, local midnight, a DST change); a reading in [fromMs, untilMs) of the station's kept answer
 * gets that answer, any other instant (later, or earlier after the clock stepped back) asks again. The
 * holiday days are filled in at start: a change of their number forgets what was kept.
 */
import { QuietHoursTimeline } from '../core/forecastQuietHours.js';
import { QUIET_HOURS_CODE, quietCauseText, type QuietCause, type QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { StationLocation } from '../ingest/types.js';
import type { MowableHold } from '../station/unit.js';

export type NightSun =
  { source: 'station' } | { source: 'time_zone'; zone: string; latitude: number; longitude: number } | { source: 'none' };
const STATION_SUN: NightSun = Object.freeze({ source: 'station' });
const NO_SUN: NightSun = Object.freeze({ source: 'none' });

interface Kept {
  fromMs: number;
  untilMs: number;
  holidays: number;
  hold: MowableHold | undefined;
}

export class QuietHolds {
  readonly #settings: QuietHoursSettings;
  readonly #timeline: QuietHoursTimeline;
  /** Each station's location (undefined: none, so no night ban); a station not listed has no hold. */
  readonly #locations: ReadonlyMap<string, StationLocation | undefined>;
  readonly #kept = new Map<string, Kept>();

  constructor(settings: QuietHoursSettings, stations: ReadonlyArray<{ id: string; location?: StationLocation | undefined }>) {
    this.#settings = settings;
    this.#timeline = new QuietHoursTimeline(settings);
    this.#locations = new Map(stations.map((station) => [station.id, station.location]));
  }

  /**
   * Where the station's night ban takes its sun from, for the state (`night_ban_sun`): its own
   * location (not repeated: the open page must not locate it), the time zone's reference point, or
   * none; undefined with the night ban off or for a station the lawn memory does not serve.
   */
  nightSun(stationId: string): NightSun | undefined {
    if (!this.#settings.night || !this.#locations.has(stationId)) return undefined;
    if (this.#locations.get(stationId) !== undefined) return STATION_SUN;
    const zone = this.#settings.zoneLocation;
    return zone ? { source: 'time_zone', zone: zone.zone, latitude: zone.latitude, longitude: zone.longitude } : NO_SUN;
  }

  /** The station's quiet-hours hold at `nowMs`, or undefined (none now, or not a station of the lawn memory). */
  holdAt(stationId: string, nowMs: number): MowableHold | undefined {
    if (!this.#locations.has(stationId)) return undefined;
    const holidays = this.#settings.holidays?.size ?? 0;
    const kept = this.#kept.get(stationId);
    if (kept !== undefined && nowMs >= kept.fromMs && nowMs < kept.untilMs && kept.holidays === holidays) return kept.hold;
    const { cause, untilMs } = this.#timeline.causeUntil(nowMs, this.#locations.get(stationId));
    const hold = cause && holdOf(cause, this.#settings.timeZone);
    this.#kept.set(stationId, { fromMs: nowMs, untilMs, holidays, hold });
    return hold;
  }
}

/** The hold's reasons; the night ban's times are the station's sunset and sunrise, which locate it: pages anyone may read get none. */
function holdOf(cause: QuietCause, timeZone: string): MowableHold {
  const reason = Object.freeze({ en: quietCauseText(cause, 'en', timeZone), de: quietCauseText(cause, 'de', timeZone) });
  if (cause.kind !== 'night' && cause.kind !== 'polar_night') return Object.freeze({ code: QUIET_HOURS_CODE, reason });
  const publicReason = Object.freeze({ en: quietCauseText(cause, 'en', timeZone, true), de: quietCauseText(cause, 'de', timeZone, true) });
  return Object.freeze({ code: QUIET_HOURS_CODE, reason, publicReason });
}
