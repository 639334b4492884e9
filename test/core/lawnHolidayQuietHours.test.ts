/** Public holidays in the pure quiet hours: the dates come in as data and are read in the configured time zone. */
import { describe, expect, it } from 'vitest';
import { quietHoursReason, type QuietHoursSettings } from '../../src/core/lawn/quietHours.js';

const holidays = new Map([
  ['2026-10-03', 'National Holiday'],
  ['2026-01-06', 'Epiphany'],
]);
const settings: QuietHoursSettings = { night: false, marginMinutes: 30, noise: null, sundays: false, timeZone: 'Europe/Berlin', holidays };

describe('quiet hours on public holidays', () => {
  it.each([
    ['3 October (a Saturday) at noon', '2026-10-03T10:00:00Z', 'quiet hours: public holiday (National Holiday)'],
    ['00:30 on 3 October in Berlin, still 2 October in UTC', '2026-10-02T22:30:00Z', 'quiet hours: public holiday (National Holiday)'],
    ['00:30 on 4 October in Berlin: over', '2026-10-03T22:30:00Z', undefined],
    ['6 January', '2026-01-06T12:00:00Z', 'quiet hours: public holiday (Epiphany)'],
    ['a normal weekday', '2026-10-06T10:00:00Z', undefined],
  ])('%s', (_name, at, reason) => {
    expect(quietHoursReason(Date.parse(at), undefined, settings)).toBe(reason);
  });

  it('reads the date in the configured time zone', () => {
    expect(quietHoursReason(Date.parse('2026-10-02T22:30:00Z'), undefined, { ...settings, timeZone: 'America/New_York' })).toBeUndefined();
    expect(quietHoursReason(Date.parse('2026-10-04T02:30:00Z'), undefined, { ...settings, timeZone: 'America/New_York' })).toBe(
      'quiet hours: public holiday (National Holiday)',
    );
  });

  it('noise hours and Sundays name themselves first; no dates, no holidays', () => {
    expect(
      quietHoursReason(Date.parse('2026-10-03T19:00:00Z'), undefined, { ...settings, noise: { fromMin: 20 * 60, toMin: 7 * 60 } }),
    ).toBe('quiet hours: noise hours 20:00–07:00');
    expect(quietHoursReason(Date.parse('2026-10-03T10:00:00Z'), undefined, { ...settings, holidays: undefined })).toBeUndefined();
  });
});
