import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalTimeCache, utcParts, type LocalDateTime } from '../../src/core/localTime.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

/** The reference: Intl's parts, as the core read them before the cache. */
function intlParts(nowMs: number, timeZone: string): LocalDateTime {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(nowMs));
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

// Half-hour DST (Lord Howe), +05:45, a southern DST zone, an offset with seconds (Monrovia before 1972), a skipped day (Apia).
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/Santiago',
  'Africa/Monrovia',
  'Pacific/Apia',
];

// Compared with Intl at many instants: 2 s of CPU on a quiet machine, over 10 s on a loaded one.
describe('LocalTimeCache', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('gives exactly what Intl gives, at any instant, also right around offset changes', () => {
    const transitions = [
      Date.parse('2026-03-29T01:00:00Z'), // Berlin: CET -> CEST
      Date.parse('2026-10-25T01:00:00Z'), // Berlin: CEST -> CET
      Date.parse('2026-04-04T15:00:00Z'), // Lord Howe: +11 -> +10:30
      Date.parse('1972-01-07T00:44:30Z'), // Monrovia: -00:44:30 -> +00:00
      Date.parse('2011-12-30T10:00:00Z'), // Apia skipped 30 December 2011
    ];
    const near = fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -120_000, max: 120_000 })).map(([at, delta]) => at + delta);
    const anywhere = fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_000 }); // years 0000-9999
    fc.assert(
      fc.property(fc.oneof(near, anywhere), fc.constantFrom(...ZONES), (nowMs, zone) => {
        const cache = new LocalTimeCache(intlParts);
        expect(cache.partsAt(nowMs, zone)).toEqual(intlParts(nowMs, zone));
        // Warm: the same minute again and the next second.
        expect(cache.partsAt(nowMs + 1000, zone)).toEqual(intlParts(nowMs + 1000, zone));
      }),
      { numRuns: 2000 },
    );
  });

  it('an offset change in the middle of a minute (Monrovia, 1972: -00:44:30 -> UTC at 00:44:30 UTC): every second around it', () => {
    const change = Date.parse('1972-01-07T00:44:30Z');
    expect(intlParts(change - 1000, 'Africa/Monrovia')).toMatchObject({ day: 6, hour: 23, minute: 59, second: 59 });
    expect(intlParts(change, 'Africa/Monrovia')).toMatchObject({ day: 7, hour: 0, minute: 44, second: 30 });
    const cache = new LocalTimeCache(intlParts);
    for (let ms = change - 90_000; ms <= change + 90_000; ms += 1000) {
      expect(cache.partsAt(ms, 'Africa/Monrovia')).toEqual(intlParts(ms, 'Africa/Monrovia'));
    }
  });

  it('asks Intl twice per zone and minute, not per call', () => {
    let calls = 0;
    const cache = new LocalTimeCache((nowMs, zone) => {
      calls++;
      return intlParts(nowMs, zone);
    });
    const start = Date.parse('2026-06-15T12:00:00Z');
    for (let ms = start; ms < start + 60_000; ms += 250) expect(cache.partsAt(ms, 'Europe/Berlin')).toEqual(intlParts(ms, 'Europe/Berlin'));
    expect(calls).toBe(2);
  });

  it('remembers earlier minutes: an hourly projection and a replay back and forth ask Intl once per minute, and stay exact', () => {
    let calls = 0;
    const cache = new LocalTimeCache((nowMs, zone) => {
      calls++;
      return intlParts(nowMs, zone);
    });
    // 48 hourly instants across Berlin's autumn change, three times over, with a minute in between.
    const start = Date.parse('2026-10-24T06:00:00Z');
    for (let pass = 0; pass < 3; pass++) {
      for (let hour = 0; hour < 48; hour++) {
        const ms = start + hour * 3_600_000 + pass * 7_000;
        expect(cache.partsAt(ms, 'Europe/Berlin')).toEqual(intlParts(ms, 'Europe/Berlin'));
      }
    }
    expect(calls).toBe(48 * 2);
  });

  it('keeps a bounded list of minutes per zone and is still exact after starting it again', () => {
    let calls = 0;
    const cache = new LocalTimeCache((nowMs, zone) => {
      calls++;
      return intlParts(nowMs, zone);
    });
    const start = Date.parse('2026-03-28T12:00:00Z');
    for (let minute = 0; minute < 3000; minute++) cache.partsAt(start + minute * 60_000, 'Europe/Berlin');
    expect(calls).toBe(3000 * 2);
    // Minute 0 was dropped when the list started again: asked again, still right.
    expect(cache.partsAt(start, 'Europe/Berlin')).toEqual(intlParts(start, 'Europe/Berlin'));
    expect(calls).toBe(3000 * 2 + 2);
  });

  it('passes an unknown zone to the exact path, which decides (throws)', () => {
    const cache = new LocalTimeCache(intlParts);
    expect(() => cache.partsAt(Date.now(), 'Not/AZone')).toThrow(RangeError);
  });
});

describe('utcParts', () => {
  it("gives Date's UTC fields at any instant of years 0000-9999", () => {
    const anywhere = fc.integer({ min: -62_198_755_200_000, max: 253_402_300_799_999 });
    const dayEdges = fc
      .tuple(fc.integer({ min: -719_528, max: 2_932_896 }), fc.constantFrom(0, 1, 999, 1000, 86_399_999))
      .map(([day, ms]) => day * 86_400_000 + ms);
    fc.assert(
      fc.property(fc.oneof(anywhere, dayEdges), (ms) => {
        const date = new Date(ms);
        expect(utcParts(ms)).toEqual({
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
          hour: date.getUTCHours(),
          minute: date.getUTCMinutes(),
          second: date.getUTCSeconds(),
        });
      }),
      { numRuns: 20_000 },
    );
  });
});
