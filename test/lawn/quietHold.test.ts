/**
 * The lawn memory's quiet-hours hold, remembered per station until it can change (src/lawn/quietHold.ts),
 * is the hold asked afresh (the night ban, then noise hours, Sundays and holidays, as quietHoursCause
 * gives them, with their reasons): at random instants asked in order with clock steps backwards in
 * between, at every night edge and local minute boundary (noise hours, midnight) to the millisecond,
 * across both daylight-saving changes in Europe/Berlin and a minute whose offset changes inside it (Dublin, 1916), and with
 * holidays filled in after it was made.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nightSpans,
  QUIET_HOURS_CODE,
  quietCauseText,
  quietHoursCause,
  type Location,
  type QuietHoursSettings,
} from '../../src/core/lawn/quietHours.js';
import { QuietHolds } from '../../src/lawn/quietHold.js';
import type { MowableHold } from '../../src/station/unit.js';

const BERLIN: Location = { latitude: 52.52, longitude: 13.405 };
const TROMSO: Location = { latitude: 69.65, longitude: 18.96 };
const SYDNEY: Location = { latitude: -33.87, longitude: 151.21 };
const STATIONS = [
  { id: 'berlin', location: { ...BERLIN, elevation: 34 } },
  { id: 'tromso', location: TROMSO },
  { id: 'sydney', location: SYDNEY },
  { id: 'nowhere' },
];
const ZONES = ['Europe/Berlin', 'Australia/Sydney', 'America/St_Johns', 'UTC'];
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-12-31T00:00:00Z');
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const HOLIDAYS = new Map([
  ['2026-10-03', 'Day of German Unity'],
  ['2026-12-25', 'Christmas Day'],
  ['2027-01-01', "New Year's Day"],
]);
const HOLIDAYS_DE = new Map([
  ['2026-10-03', 'Tag der Deutschen Einheit'],
  ['2026-12-25', '1. Weihnachtstag'],
]);

/** The hold as the lawn unit built it before it was remembered: the cause asked afresh, and its four texts. */
function freshHold(stationId: string, ms: number, quiet: QuietHoursSettings): MowableHold | undefined {
  const location = STATIONS.find((station) => station.id === stationId)?.location;
  const cause = quietHoursCause(ms, location, quiet);
  if (cause === undefined) return undefined;
  const text = (lang: 'en' | 'de', hideTimes = false) => quietCauseText(cause, lang, quiet.timeZone, hideTimes);
  return cause.kind === 'night' || cause.kind === 'polar_night'
    ? { code: QUIET_HOURS_CODE, reason: { en: text('en'), de: text('de') }, publicReason: { en: text('en', true), de: text('de', true) } }
    : { code: QUIET_HOURS_CODE, reason: { en: text('en'), de: text('de') } };
}

/** Every UTC minute boundary of [fromMs, toMs) and the millisecond before it (local minutes start there in these zones), and the night edges ±1 ms. */
function edgesAround(fromMs: number, toMs: number, quiet: QuietHoursSettings, stepMinutes: number): number[] {
  const instants: number[] = [];
  for (let t = Math.ceil(fromMs / MINUTE_MS) * MINUTE_MS; t < toMs; t += stepMinutes * MINUTE_MS) instants.push(t - 1, t);
  for (const location of [BERLIN, TROMSO, SYDNEY]) {
    for (let day = fromMs; day < toMs + DAY_MS; day += DAY_MS) {
      for (const span of nightSpans(day, location, quiet.marginMinutes)) {
        if (span.kind === 'night') instants.push(span.fromMs - 1, span.fromMs, span.fromMs + 1, span.toMs - 1, span.toMs, span.toMs + 1);
      }
    }
  }
  return instants.sort((a, b) => a - b);
}

function expectSameAsFresh(holds: QuietHolds, instants: readonly number[], quiet: QuietHoursSettings): number {
  let held = 0;
  for (const ms of instants) {
    for (const { id } of STATIONS) {
      const hold = holds.holdAt(id, ms);
      const fresh = freshHold(id, ms, quiet);
      // Compared as text first (the members and their order, as the state writes them): expect's message costs more than the answer.
      if (JSON.stringify(hold) !== JSON.stringify(fresh))
        expect(hold, `${id} at ${new Date(ms).toISOString()} (${ms})`).toStrictEqual(fresh);
      if (hold) held++;
    }
  }
  return held;
}

const settings = fc.record({
  night: fc.boolean(),
  marginMinutes: fc.constantFrom(0, 1, 30, 90),
  noise: fc.option(
    fc
      .record({ fromMin: fc.integer({ min: 0, max: 1440 }), toMin: fc.integer({ min: 0, max: 1440 }) })
      .filter((n) => n.fromMin !== n.toMin),
    { nil: null },
  ),
  sundays: fc.boolean(),
  holidays: fc.boolean(),
  timeZone: fc.constantFrom(...ZONES),
});

describe('QuietHolds', () => {
  it('answers as the hold asked afresh at every night edge and minute boundary to the millisecond, with clock steps backwards between', () => {
    fc.assert(
      fc.property(
        settings,
        fc.integer({ min: FROM, max: TO }),
        fc.constantFrom(1, 7, 30),
        fc.array(fc.integer({ min: 0, max: 26 * 60 * MINUTE_MS }), { maxLength: 4 }),
        (drawn, startMs, stepMinutes, backTo) => {
          const { holidays, ...rest } = drawn;
          const quiet: QuietHoursSettings = { ...rest, ...(holidays && { holidays: HOLIDAYS, holidayNamesDe: HOLIDAYS_DE }) };
          const holds = new QuietHolds(quiet, STATIONS);
          const instants = edgesAround(startMs, startMs + 26 * 60 * MINUTE_MS, quiet, stepMinutes);
          // A clock step backwards: the instants from a random earlier point are asked again after the last.
          const steps = backTo.flatMap((offsetMs) => instants.filter((ms) => ms >= startMs + offsetMs).slice(0, 200));
          expectSameAsFresh(holds, [...instants, ...steps], quiet);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('answers as asked afresh at random instants in any order (clock steps both ways)', () => {
    fc.assert(
      fc.property(settings, fc.array(fc.integer({ min: FROM, max: TO }), { minLength: 1, maxLength: 60 }), (drawn, instants) => {
        const { holidays, ...rest } = drawn;
        const quiet: QuietHoursSettings = { ...rest, ...(holidays && { holidays: HOLIDAYS, holidayNamesDe: HOLIDAYS_DE }) };
        const holds = new QuietHolds(quiet, STATIONS);
        expectSameAsFresh(
          holds,
          instants.flatMap((ms) => [ms, ms + 1, ms + MINUTE_MS]),
          quiet,
        );
      }),
      { numRuns: 100 },
    );
  });

  it('answers as asked afresh through both daylight-saving changes in Europe/Berlin, millisecond by millisecond at the change', () => {
    for (const change of ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z']) {
      const changeMs = Date.parse(change);
      for (const noise of [{ fromMin: 120, toMin: 180 }, { fromMin: 90, toMin: 150 }, { fromMin: 180, toMin: 60 }, null]) {
        const quiet: QuietHoursSettings = {
          night: true,
          marginMinutes: 30,
          noise,
          sundays: true,
          timeZone: 'Europe/Berlin',
          holidays: HOLIDAYS,
          holidayNamesDe: HOLIDAYS_DE,
        };
        const holds = new QuietHolds(quiet, STATIONS);
        const around = Array.from({ length: 41 }, (_, i) => changeMs - 20 + i);
        const held = expectSameAsFresh(
          holds,
          [
            ...edgesAround(changeMs - DAY_MS, changeMs - 1_000, quiet, 5),
            ...around,
            ...edgesAround(changeMs + 1_000, changeMs + DAY_MS, quiet, 5),
          ],
          quiet,
        );
        expect(held).toBeGreaterThan(0);
      }
    }
  });

  it('answers as asked afresh within a UTC minute whose offset changes inside it (Dublin, 21 May 1916: 02:00 DMT became 03:00 IST at 02:25:21 UTC)', () => {
    const quiet: QuietHoursSettings = {
      night: false,
      marginMinutes: 0,
      noise: { fromMin: 3 * 60, toMin: 4 * 60 },
      sundays: false,
      timeZone: 'Europe/Dublin',
    };
    const holds = new QuietHolds(quiet, STATIONS);
    const changeMs = Date.parse('1916-05-21T02:25:21Z');
    const instants = [changeMs - 21_000, changeMs - 1, changeMs, changeMs + 1, changeMs + 38_000, changeMs + 39_000];
    expect(expectSameAsFresh(holds, instants, quiet)).toBeGreaterThan(0);
    expect(holds.holdAt('nowhere', changeMs - 1)).toBeUndefined();
  });

  it('keeps one answer within its span and asks again after its edge or before its start', () => {
    const quiet: QuietHoursSettings = {
      night: true,
      marginMinutes: 30,
      noise: { fromMin: 20 * 60, toMin: 7 * 60 },
      sundays: false,
      timeZone: 'Europe/Berlin',
    };
    const holds = new QuietHolds(quiet, STATIONS);
    const night = nightSpans(Date.parse('2026-06-10T12:00:00Z'), BERLIN, 30).find(
      (span) => span.kind === 'night' && span.toMs > Date.parse('2026-06-10T12:00:00Z'),
    );
    if (night?.kind !== 'night') throw new Error('no night span');
    const first = holds.holdAt('berlin', night.fromMs);
    expect(first?.publicReason).toBeDefined();
    // Kept until the end of the UTC day (the night spans are that day's), then asked again.
    const dayEndMs = (Math.floor(night.fromMs / DAY_MS) + 1) * DAY_MS;
    expect(holds.holdAt('berlin', night.fromMs + 1)).toBe(first);
    expect(holds.holdAt('berlin', dayEndMs - 1)).toBe(first);
    const nextDay = holds.holdAt('berlin', dayEndMs);
    expect(nextDay).not.toBe(first);
    expect(nextDay).toStrictEqual(first);
    expect(holds.holdAt('berlin', night.toMs - 1)).toBe(nextDay);
    expect(holds.holdAt('berlin', night.toMs)).toStrictEqual(freshHold('berlin', night.toMs, quiet));
    expect(holds.holdAt('berlin', night.fromMs - 1)).toStrictEqual(freshHold('berlin', night.fromMs - 1, quiet));
    expect(holds.holdAt('unknown', night.fromMs)).toBeUndefined();
  });

  it('forgets what it kept when the holidays are filled in after it was made', () => {
    const holidays = new Map<string, string>();
    const quiet: QuietHoursSettings = { night: false, marginMinutes: 0, noise: null, sundays: false, timeZone: 'Europe/Berlin', holidays };
    const holds = new QuietHolds(quiet, STATIONS);
    const noon = Date.parse('2026-10-03T10:00:00Z');
    expect(holds.holdAt('berlin', noon)).toBeUndefined();
    holidays.set('2026-10-03', 'Day of German Unity');
    expect(holds.holdAt('berlin', noon + 1)?.reason.en).toBe('quiet hours: public holiday (Day of German Unity)');
  });
});
