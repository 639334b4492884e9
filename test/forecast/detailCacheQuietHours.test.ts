/**
 * The forecast windows' quiet hours, remembered per UTC day and minute (src/core/forecastQuietHours.ts),
 * answer exactly as the quiet-hours cause asked afresh (src/core/lawn/quietHours.ts): at random instants,
 * at the night ban's edges to the millisecond, across daylight-saving changes, at polar latitudes, with
 * holidays filled in after the timeline was made, and in any order of asking.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuietHoursTimeline } from '../../src/core/forecastQuietHours.js';
import { nightSpans, quietHoursCause, quietHoursReason, type Location, type QuietHoursSettings } from '../../src/core/lawn/quietHours.js';

const BERLIN: Location = { latitude: 52.52, longitude: 13.405 };
const TROMSO: Location = { latitude: 69.65, longitude: 18.96 };
const SYDNEY: Location = { latitude: -33.87, longitude: 151.21 };
const LOCATIONS = [BERLIN, TROMSO, SYDNEY, undefined];
const ZONES = ['Europe/Berlin', 'Australia/Sydney', 'America/St_Johns', 'UTC', 'Not/AZone'];
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-12-31T00:00:00Z');
const DAY_MS = 86_400_000;

const settings = fc.record({
  night: fc.boolean(),
  marginMinutes: fc.constantFrom(0, 1, 30, 90),
  noise: fc.option(fc.record({ fromMin: fc.integer({ min: 0, max: 1439 }), toMin: fc.integer({ min: 0, max: 1439 }) }), { nil: null }),
  sundays: fc.boolean(),
  timeZone: fc.constantFrom(...ZONES),
});

/** Instants worth asking about at a location: near every night edge of the days around `ms`, and `ms` itself. */
function edges(ms: number, location: Location | undefined, marginMinutes: number): number[] {
  if (!location) return [ms];
  return nightSpans(ms, location, marginMinutes).flatMap((span) =>
    span.kind === 'night' ? [span.fromMs - 1, span.fromMs, span.toMs - 1, span.toMs] : [ms],
  );
}

describe('QuietHoursTimeline', () => {
  it('answers as quietHoursCause at random instants and at the night edges, asked in any order and again', () => {
    fc.assert(
      fc.property(
        settings,
        fc.array(fc.integer({ min: FROM, max: TO }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 3 }),
        (quiet, instants, where) => {
          const location = LOCATIONS[where];
          const timeline = new QuietHoursTimeline(quiet as QuietHoursSettings);
          const asked = instants.flatMap((ms) => edges(ms, location, quiet.marginMinutes));
          for (const ms of [...asked, ...asked.reverse()]) {
            expect(timeline.allowedAt(ms, location), new Date(ms).toISOString()).toBe(
              quietHoursCause(ms, location, quiet as QuietHoursSettings) === undefined,
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers as the reason every 5 minutes (at both ends of each step) over 48 hours across a daylight-saving change', () => {
    const quiet: QuietHoursSettings = {
      night: true,
      marginMinutes: 30,
      noise: { fromMin: 22 * 60, toMin: 6 * 60 },
      sundays: true,
      timeZone: 'Europe/Berlin',
    };
    const timeline = new QuietHoursTimeline(quiet);
    const start = Date.parse('2026-10-24T12:00:00Z') + 17_321;
    let quietSteps = 0;
    for (let pass = 0; pass < 3; pass++) {
      for (let t = start + pass * 60_000; t < start + 2 * DAY_MS; t += 5 * 60_000) {
        for (const ms of [t, t + 5 * 60_000 - 1]) {
          const allowed = timeline.allowedAt(ms, BERLIN);
          expect(allowed).toBe(quietHoursReason(ms, BERLIN, quiet) === undefined);
          if (!allowed) quietSteps++;
        }
      }
    }
    expect(quietSteps).toBeGreaterThan(0);
  });

  it('asks afresh within a UTC minute whose local minute changes inside it (an offset in seconds: Monrovia, 1970)', () => {
    const quiet: QuietHoursSettings = {
      night: false,
      marginMinutes: 0,
      noise: { fromMin: 20 * 60, toMin: 6 * 60 },
      sundays: false,
      timeZone: 'Africa/Monrovia',
    };
    const timeline = new QuietHoursTimeline(quiet);
    const minute = Date.UTC(1970, 5, 15, 20, 44); // 19:59:30 local, -0:44:30
    expect(timeline.allowedAt(minute, undefined)).toBe(true);
    expect(timeline.allowedAt(minute + 45_000, undefined)).toBe(false); // 20:00:15 local: noise hours
    expect(quietHoursCause(minute + 45_000, undefined, quiet)?.kind).toBe('noise');
  });

  it('forgets what it kept when the holidays are filled in after it was made', () => {
    const holidays = new Map<string, string>();
    const quiet: QuietHoursSettings = { night: false, marginMinutes: 0, noise: null, sundays: false, timeZone: 'Europe/Berlin', holidays };
    const timeline = new QuietHoursTimeline(quiet);
    const noon = Date.parse('2026-10-03T10:00:00Z');
    expect(timeline.allowedAt(noon, BERLIN)).toBe(true);
    holidays.set('2026-10-03', 'Day of German Unity');
    expect(timeline.allowedAt(noon, BERLIN)).toBe(false);
    expect(quietHoursReason(noon, BERLIN, quiet)).toBe('quiet hours: public holiday (Day of German Unity)');
  });

  it('answers for a whole polar night and a polar day as the cause does', () => {
    const quiet: QuietHoursSettings = { night: true, marginMinutes: 30, noise: null, sundays: false, timeZone: 'Europe/Oslo' };
    const timeline = new QuietHoursTimeline(quiet);
    for (const day of ['2026-12-21T00:00:00Z', '2026-06-21T00:00:00Z', '2026-03-01T00:00:00Z']) {
      for (let ms = Date.parse(day); ms < Date.parse(day) + DAY_MS; ms += 7 * 60_000 + 13_000) {
        expect(timeline.allowedAt(ms, TROMSO)).toBe(quietHoursCause(ms, TROMSO, quiet) === undefined);
      }
    }
  });
});
