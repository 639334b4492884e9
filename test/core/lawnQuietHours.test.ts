/** Sunrise/sunset (NOAA/Meeus) and the quiet-hours rule for the `mowable` flag. */
import { describe, expect, it } from 'vitest';
import {
  nightBan,
  parseNoiseHours,
  quietCauseText,
  quietHoursCause,
  quietHoursReason,
  type QuietHoursSettings,
} from '../../src/core/lawn/quietHours.js';
import { QuietHoursTimeline } from '../../src/core/forecastQuietHours.js';
import { sunDay } from '../../src/core/lawn/sun.js';

const berlin = { latitude: 52.52, longitude: 13.405 };
const settings: QuietHoursSettings = { night: true, marginMinutes: 30, noise: null, sundays: false, timeZone: 'Europe/Berlin' };

describe('sun', () => {
  it.each([
    // NOAA Solar Calculator: Berlin 21 June 2026 sunrise 04:43, sunset 21:33 CEST; Munich 1 Sept 06:31 / 19:55 CEST.
    ['Berlin midsummer', '2026-06-21T12:00:00Z', berlin, '2026-06-21T02:43:00Z', '2026-06-21T19:33:00Z'],
    ['Munich 1 September', '2026-09-01T12:00:00Z', { latitude: 48.14, longitude: 11.58 }, '2026-09-01T04:31:00Z', '2026-09-01T17:55:00Z'],
  ])('%s', (_name, day, place, sunrise, sunset) => {
    const sun = sunDay(Date.parse(day), place.latitude, place.longitude);
    if (sun.kind !== 'normal') throw new Error('expected a normal day');
    expect(Math.abs(sun.sunriseMs - Date.parse(sunrise))).toBeLessThan(2 * 60_000);
    expect(Math.abs(sun.sunsetMs - Date.parse(sunset))).toBeLessThan(2 * 60_000);
  });

  it('knows polar day and night (Tromsø)', () => {
    expect(sunDay(Date.parse('2026-06-21T12:00:00Z'), 69.65, 18.96).kind).toBe('polar_day');
    expect(sunDay(Date.parse('2026-12-21T12:00:00Z'), 69.65, 18.96).kind).toBe('polar_night');
  });
});

describe('quiet hours', () => {
  it.each([
    ['18:55 UTC, 38 min before sunset: allowed', '2026-06-21T18:55:00Z', false],
    ['19:05 UTC, 28 min before sunset: night ban', '2026-06-21T19:05:00Z', true],
    ['midnight', '2026-06-21T23:59:00Z', true],
    ['03:05 UTC, 22 min after sunrise: still banned', '2026-06-22T03:05:00Z', true],
    ['03:20 UTC, 37 min after sunrise: allowed', '2026-06-22T03:20:00Z', false],
  ])('Berlin, %s', (_name, at, banned) => {
    expect(nightBan(Date.parse(at), berlin, 30, 'Europe/Berlin') !== undefined).toBe(banned);
  });

  it('names the window in local time', () => {
    expect(quietHoursReason(Date.parse('2026-06-21T19:05:00Z'), berlin, settings)).toBe(
      'quiet hours: night ban from 21:03 (30 min before sunset) to 05:13 (30 min after sunrise)',
    );
  });

  it('needs a location for the night ban, and applies noise hours and Sundays in local time', () => {
    expect(quietHoursReason(Date.parse('2026-06-21T23:00:00Z'), undefined, settings)).toBeUndefined();
    const noisy = { ...settings, night: false, noise: parseNoiseHours('20:00-07:00'), sundays: true };
    expect(quietHoursReason(Date.parse('2026-06-22T18:30:00Z'), berlin, noisy)).toBe('quiet hours: noise hours 20:00–07:00');
    expect(quietHoursReason(Date.parse('2026-06-22T10:00:00Z'), berlin, noisy)).toBeUndefined();
    // 21 June 2026 is a Sunday.
    expect(quietHoursReason(Date.parse('2026-06-21T10:00:00Z'), berlin, noisy)).toBe('quiet hours: Sunday');
  });

  it('polar night is quiet all day', () => {
    expect(nightBan(Date.parse('2026-12-21T11:00:00Z'), { latitude: 69.65, longitude: 18.96 }, 30, 'UTC')).toMatch(/polar night/);
  });

  it.each(['7-8', '20:00', '25:00-07:00', '20:00-20:00', '20:61-07:00'])('refuses noise hours "%s"', (text) => {
    expect(() => parseNoiseHours(text)).toThrow();
  });
});

describe("quiet hours in German (the language of the model's reasons)", () => {
  const holidays = new Map([['2026-06-04', 'Corpus Christi']]);
  const full: QuietHoursSettings = {
    ...settings,
    noise: parseNoiseHours('20:00-07:00'),
    sundays: true,
    holidays,
    holidayNamesDe: new Map([['2026-06-04', 'Fronleichnam']]),
  };
  const german = (iso: string, hideTimes = false) => {
    const cause = quietHoursCause(Date.parse(iso), berlin, full);
    return cause && quietCauseText(cause, 'de', full.timeZone, hideTimes);
  };

  it.each([
    [
      'night ban with its times',
      '2026-06-21T21:00:00Z',
      false,
      'Ruhezeit: Nachtverbot von 21:03 (30 Min. vor Sonnenuntergang) bis 05:13 (30 Min. nach Sonnenaufgang)',
    ],
    [
      'night ban for open pages',
      '2026-06-21T21:00:00Z',
      true,
      'Ruhezeit: Nachtverbot (von 30 Min. vor Sonnenuntergang bis 30 Min. nach Sonnenaufgang)',
    ],
    ['Sunday', '2026-06-21T10:00:00Z', false, 'Ruhezeit: Sonntag'],
    ['holiday, German name', '2026-06-04T10:00:00Z', false, 'Ruhezeit: Feiertag (Fronleichnam)'],
  ])('%s', (_name, iso, hideTimes, text) => {
    expect(german(iso, hideTimes)).toBe(text);
  });

  it('noise hours, polar night, and the English sentence of the same cause', () => {
    const noise = quietHoursCause(Date.parse('2026-06-22T04:00:00Z'), undefined, full)!;
    expect(quietCauseText(noise, 'de', 'Europe/Berlin')).toBe('Ruhezeit: Lärmschutzzeit 20:00–07:00');
    expect(quietCauseText(noise, 'en', 'Europe/Berlin')).toBe('quiet hours: noise hours 20:00–07:00');
    expect(quietCauseText({ kind: 'polar_night' }, 'de', 'UTC')).toBe('Ruhezeit: Polarnacht (die Sonne geht heute nicht auf)');
    // Without German names the holiday keeps the name it has.
    const cause = quietHoursCause(Date.parse('2026-06-04T10:00:00Z'), undefined, { ...settings, night: false, holidays });
    expect(quietCauseText(cause!, 'de', 'UTC')).toBe('Ruhezeit: Feiertag (Corpus Christi)');
  });
});

describe("the night ban at the time zone's reference point (a station without a location)", () => {
  const zone = { zone: 'Europe/Berlin', latitude: 52.5, longitude: 13.3667 };
  const settings: QuietHoursSettings = {
    night: true,
    marginMinutes: 30,
    noise: null,
    sundays: false,
    timeZone: 'Europe/Berlin',
    zoneLocation: zone,
  };
  const evening = Date.parse('2026-12-15T20:40:00Z');
  const noon = Date.parse('2026-12-15T11:00:00Z');

  it('holds at 21:40 in December and names the zone; the forecast timeline agrees; a station location still wins', () => {
    expect(quietHoursCause(evening, undefined, settings)).toMatchObject({ kind: 'night', zone });
    const timeline = new QuietHoursTimeline(settings);
    expect(timeline.allowedAt(evening, undefined)).toBe(false);
    expect(timeline.allowedAt(noon, undefined)).toBe(true);
    expect(timeline.causeUntil(evening, undefined).cause).toMatchObject({ kind: 'night', zone });
    // Noise hours, Sundays and holidays stay apart from the night: no night ban through their check.
    expect(
      new QuietHoursTimeline({ ...settings, noise: parseNoiseHours('22:00-06:00') }).causeUntil(noon, undefined).cause,
    ).toBeUndefined();
    const own = quietHoursCause(evening, { latitude: 52.52, longitude: 13.405 }, settings);
    expect(own).toMatchObject({ kind: 'night' });
    expect(own).not.toHaveProperty('zone');
    const { zoneLocation: _none, ...without } = settings;
    expect(quietHoursCause(evening, undefined, without)).toBeUndefined();
  });
});
