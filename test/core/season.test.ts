import { describe, expect, it } from 'vitest';
import { SEASONS, formatCalculatedAt, isSeason, localDateTime, seasonFor } from '../../src/core/index.js';

const utc = (month: number, day = 15, hour = 12): number => Date.UTC(2026, month - 1, day, hour);

describe('seasonFor', () => {
  it.each([
    [1, 'winter', 'summer'],
    [2, 'winter', 'summer'],
    [3, 'spring', 'autumn'],
    [5, 'spring', 'autumn'],
    [6, 'summer', 'winter'],
    [8, 'summer', 'winter'],
    [9, 'autumn', 'spring'],
    [11, 'autumn', 'spring'],
    [12, 'winter', 'summer'],
  ])('month %d is %s in the north and %s in the south', (month, north, south) => {
    expect(seasonFor(utc(month), 'UTC', 'north')).toBe(north);
    expect(seasonFor(utc(month), 'UTC', 'south')).toBe(south);
  });

  it('takes the month in the given time zone', () => {
    // 2026-02-28 23:30 UTC is already 1 March in Berlin.
    const instant = Date.UTC(2026, 1, 28, 23, 30);
    expect(seasonFor(instant, 'UTC', 'north')).toBe('winter');
    expect(seasonFor(instant, 'Europe/Berlin', 'north')).toBe('spring');
    // 2026-06-01 02:00 UTC is still 31 May in New York.
    expect(seasonFor(Date.UTC(2026, 5, 1, 2), 'America/New_York', 'north')).toBe('spring');
  });

  it('falls back to UTC for an invalid time zone', () => {
    const instant = Date.UTC(2026, 1, 28, 23, 30);
    expect(seasonFor(instant, 'Not/AZone', 'north')).toBe('winter');
    expect(seasonFor(instant, '', 'north')).toBe('winter');
  });
});

describe('formatCalculatedAt', () => {
  it('formats YYYY-MM-DD HH:MM:SS in the time zone, across DST', () => {
    expect(formatCalculatedAt(Date.UTC(2026, 0, 20, 7, 5, 9), 'Europe/Berlin')).toBe('2026-01-20 08:05:09');
    expect(formatCalculatedAt(Date.UTC(2026, 6, 20, 7, 5, 9), 'Europe/Berlin')).toBe('2026-07-20 09:05:09');
    expect(formatCalculatedAt(Date.UTC(2026, 6, 20, 0, 0, 0), 'UTC')).toBe('2026-07-20 00:00:00');
    expect(formatCalculatedAt(Date.UTC(2026, 6, 20, 1, 0, 0), 'Australia/Sydney')).toBe('2026-07-20 11:00:00');
  });

  it('falls back to UTC for an invalid time zone and to the epoch for an invalid instant', () => {
    expect(formatCalculatedAt(Date.UTC(2026, 6, 20, 23, 59, 59), 'Mars/Olympus')).toBe('2026-07-20 23:59:59');
    expect(formatCalculatedAt(Number.NaN, 'UTC')).toBe('1970-01-01 00:00:00');
  });
});

describe('isSeason', () => {
  it('accepts exactly the four seasons', () => {
    for (const season of SEASONS) expect(isSeason(season)).toBe(true);
    for (const value of ['Summer', 'fall', '', null, 1, {}, 'summer ']) expect(isSeason(value)).toBe(false);
  });
});

describe('localDateTime (remembers the last second per time zone)', () => {
  it('gives exact values within a second, across second boundaries and across zones', () => {
    const base = Date.parse('2026-03-29T00:59:59.000Z'); // one second before the CET→CEST switch
    expect(localDateTime(base, 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59 });
    expect(localDateTime(base + 999, 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59 });
    expect(localDateTime(base + 1000, 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 3, minute: 0, second: 0 });
    expect(localDateTime(base + 1000, 'UTC')).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 0, second: 0 });
    expect(localDateTime(base - 1, 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 58 });
  });

  it('hands out copies: changing a result does not change the next one', () => {
    const nowMs = Date.parse('2026-07-01T12:00:00Z');
    const first = localDateTime(nowMs, 'Europe/Berlin');
    first.month = 1;
    expect(localDateTime(nowMs, 'Europe/Berlin').month).toBe(7);
  });
});
