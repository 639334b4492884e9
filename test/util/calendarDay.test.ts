import { describe, expect, it } from 'vitest';
import { weekStartDay, CalendarDayClock, calendarDay, nextDayStartMs } from '../../src/util/calendarDay.js';

describe('calendar days in a time zone', () => {
  it('names the local day and finds its end, also on DST days', () => {
    // 2026-06-15 14:00 CEST: the day ends at 22:00 UTC.
    expect(calendarDay(Date.parse('2026-06-15T12:00:00Z'), 'Europe/Berlin')).toBe('2026-06-15');
    expect(new Date(nextDayStartMs(Date.parse('2026-06-15T12:00:00Z'), 'Europe/Berlin')).toISOString()).toBe('2026-06-15T22:00:00.000Z');
    // 23:30 UTC is already the next day in Berlin.
    expect(calendarDay(Date.parse('2026-06-15T23:30:00Z'), 'Europe/Berlin')).toBe('2026-06-16');
    // 2026-03-29 has 23 hours in Berlin: it starts at 23:00 UTC the day before and ends at 22:00 UTC.
    expect(new Date(nextDayStartMs(Date.parse('2026-03-28T23:00:00Z'), 'Europe/Berlin')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // A half-hour zone.
    expect(new Date(nextDayStartMs(Date.parse('2026-06-15T12:00:00Z'), 'Asia/Kolkata')).toISOString()).toBe('2026-06-15T18:30:00.000Z');
    expect(new Date(nextDayStartMs(Date.parse('2026-06-15T12:00:00Z'), 'UTC')).toISOString()).toBe('2026-06-16T00:00:00.000Z');
  });

  it('remembers the day until it ends', () => {
    const clock = new CalendarDayClock('Europe/Berlin');
    const noon = Date.parse('2026-06-15T10:00:00Z');
    expect(clock.at(noon)).toEqual({ day: '2026-06-15', endMs: Date.parse('2026-06-15T22:00:00Z') });
    expect(clock.at(Date.parse('2026-06-15T21:59:59Z')).day).toBe('2026-06-15');
    expect(clock.at(Date.parse('2026-06-15T22:00:00Z')).day).toBe('2026-06-16');
    // A clock that jumps back a day is followed too.
    expect(clock.at(noon - 86_400_000).day).toBe('2026-06-14');
  });

  it("names the Monday that begins the instant's local week", () => {
    // Sunday 14 June 2026, 23:30 in Berlin, is 21:30 UTC: still the week of Monday the 8th there.
    expect(weekStartDay(Date.UTC(2026, 5, 14, 21, 30), 'Europe/Berlin')).toBe('2026-06-08');
    // 22:30 UTC is Monday 00:30 in Berlin: a new week there, still Sunday in UTC.
    expect(weekStartDay(Date.UTC(2026, 5, 14, 22, 30), 'Europe/Berlin')).toBe('2026-06-15');
    expect(weekStartDay(Date.UTC(2026, 5, 14, 22, 30), 'UTC')).toBe('2026-06-08');
    // Across a month and a year.
    expect(weekStartDay(Date.UTC(2027, 0, 2, 12), 'UTC')).toBe('2026-12-28');
  });
});
