/**
 * Forecast index and windows: runs of OK hours, the minimum job length, minutes
 * mowable from now, rain expected; and the property that more forecast rain
 * never lengthens a window (with enough rain in the last 14 days that no dry
 * spell is in play: in a drought the model rightly rates rain as relief).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, projectForecast, type ForecastHour, type ObservedMinute } from '../../src/core/forecastProjection.js';
import { WINDOW_STEP_MINUTES, indexHours, okRuns, summarizeForecast, type HourIndex } from '../../src/core/forecastWindows.js';
import { quietHoursReason, type QuietHoursSettings } from '../../src/core/lawn/quietHours.js';
import { QuietHoursTimeline } from '../../src/core/forecastQuietHours.js';
import type { CalculationContext } from '../../src/core/index.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const context: CalculationContext = { nowMs: NOW, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: { mowerClass: 'robot' } };
const at = (hh: number): number => NOW + (hh - 12) * HOUR_MS;

/** Hours with a fixed status sequence ('O' OK, 'W' WARNING, 'B' BLOCK), the first one starting now. */
function statusHours(pattern: string, rainAt: number[] = []): HourIndex[] {
  return [...pattern].map((letter, i) => {
    const status = letter === 'O' ? 'OK' : letter === 'W' ? 'WARNING' : 'BLOCK';
    return {
      startMs: NOW + i * HOUR_MS,
      endMs: NOW + (i + 1) * HOUR_MS,
      index: letter === 'O' ? 80 - i : 30,
      status,
      limitingCheck: null,
      expectedRainMm: rainAt.includes(i) ? 1 : 0,
      rainExpected: rainAt.includes(i),
      input: {},
      inputSource: {},
    };
  });
}

describe('windows honour quiet hours and the rain lead (model 1.2)', () => {
  const BERLIN = { latitude: 52.52, longitude: 13.405 };
  const quiet: QuietHoursSettings = { night: true, marginMinutes: 30, noise: null, sundays: true, timeZone: 'Europe/Berlin' };
  const allowedAt = (ms: number) => quietHoursReason(ms, BERLIN, quiet) === undefined;
  /** 48 OK hours from `startMs`. */
  const okFrom = (startMs: number, rainAt: number[] = []): HourIndex[] =>
    statusHours('O'.repeat(48), rainAt).map((hour, i) => ({ ...hour, startMs: startMs + i * HOUR_MS, endMs: startMs + (i + 1) * HOUR_MS }));

  it('asked once per stretch with the same cause (allowedUntil), the windows are the ones asked at every step', () => {
    const settings: QuietHoursSettings = {
      ...quiet,
      noise: { fromMin: 12 * 60 + 30, toMin: 15 * 60 },
      holidays: new Map([['2026-10-26', 'Test Day']]),
    };
    const timeline = new QuietHoursTimeline(settings);
    const allowedUntil = (ms: number) => {
      const { cause, untilMs } = timeline.causeUntil(ms, BERLIN);
      return { allowed: cause === undefined, untilMs };
    };
    const start = Date.parse('2026-10-21T00:00:00Z'); // a week across Berlin's autumn change, a Sunday and a holiday
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 * 24 * 60 * 60 }), fc.constantFrom(0, 45, 120), (seconds, lead) => {
        const now = start + seconds * 1000 + (seconds % 997);
        const hours = okFrom(now, seconds % 3 === 0 ? [seconds % 48] : []);
        const everyStep = summarizeForecast(hours, now, 45, {
          rainLeadMinutes: lead,
          allowedAt: (ms) => quietHoursReason(ms, BERLIN, settings) === undefined,
        });
        expect(summarizeForecast(hours, now, 45, { rainLeadMinutes: lead, allowedUntil })).toEqual(everyStep);
      }),
      { numRuns: 150 },
    );
  });

  it('20:00 on a June Monday: mowable until the night ban, not for 2 days', () => {
    const now = Date.parse('2026-06-15T18:00:00Z'); // 20:00 CEST, sunset 21:32: ban from 21:02
    const summary = summarizeForecast(okFrom(now), now, 45, { allowedAt });
    // 1.1: 2879 minutes (the index alone).
    expect(summary.mowableForMinutes).toBe(60);
    expect(summary.nextWindow).toEqual({ startMs: now, endMs: Date.parse('2026-06-15T19:00:00Z'), minIndex: 33 });
  });

  it('23:30 during the ban: not mowable now, the next window starts after the ban (never inside quiet hours)', () => {
    const now = Date.parse('2026-06-15T21:30:00Z');
    const summary = summarizeForecast(okFrom(now), now, 45, { allowedAt });
    // 1.1: mowable for 2879 min, next window "now".
    expect(summary.mowableForMinutes).toBe(0);
    const start = summary.nextWindow!.startMs;
    expect(allowedAt(start)).toBe(true);
    expect(allowedAt(start - WINDOW_STEP_MINUTES * MINUTE_MS)).toBe(false);
    expect(new Date(start).toISOString()).toBe('2026-06-16T03:15:00.000Z'); // sunrise 04:43 CEST + 30 min, to the step
    for (const window of summary.windows) {
      for (let t = window.startMs; t < window.endMs; t += MINUTE_MS) expect(allowedAt(t)).toBe(true);
    }
  });

  it('Sunday is quiet all day', () => {
    const now = Date.parse('2026-06-13T20:00:00Z'); // Saturday 22:00 CEST
    const summary = summarizeForecast(okFrom(now), now, 45, { allowedAt });
    // Not on Sunday at all: the first window opens on Monday after the night ban.
    expect(new Date(summary.nextWindow!.startMs).toISOString()).toBe('2026-06-15T03:15:00.000Z');
  });

  it.each([
    // [rain lead, minutes mowable from now before rain expected in hour 3]; 1.1: 180 whatever the lead
    [0, 180],
    [20, 160],
    [60, 120],
  ])('a rain lead of %d min leaves %d min', (lead, minutes) => {
    const summary = summarizeForecast(statusHours('OOOBOO', [3]), NOW, 45, { rainLeadMinutes: lead });
    expect(summary.mowableForMinutes).toBe(minutes);
    expect(summary.windows[0]!.endMs).toBe(at(15) - lead * MINUTE_MS);
  });

  it('mowable_for is unknown (null) without forecast hours', () => {
    expect(summarizeForecast([], NOW, 45).mowableForMinutes).toBeNull();
  });
});

describe('summarizeForecast', () => {
  it('finds the first run at least the job long, and how long mowing lasts from now', () => {
    const summary = summarizeForecast(statusHours('OOWOBOOOOW', [4]), NOW + 10 * MINUTE_MS, 90);
    expect(summary.mowableForMinutes).toBe(110);
    expect(summary.nextWindow).toEqual({ startMs: NOW, endMs: at(14), minIndex: 79 });
    expect(summary.rainExpectedInMinutes).toBe(230);
  });

  it('skips runs shorter than the minimum job', () => {
    const summary = summarizeForecast(statusHours('WOWOOOB'), NOW, 120);
    expect(summary.mowableForMinutes).toBe(0);
    expect(summary.nextWindow).toEqual({ startMs: at(15), endMs: at(18), minIndex: 75 });
    expect(summary.windows).toHaveLength(1);
    expect(summary.rainExpectedInMinutes).toBeNull();
  });

  it('has no window when nothing is OK, and rain now is 0 minutes away', () => {
    expect(summarizeForecast(statusHours('BBWW', [0]), NOW, 45)).toEqual({
      nextWindow: null,
      windows: [],
      mowableForMinutes: 0,
      rainExpectedInMinutes: 0,
    });
  });

  it('does not join runs across a gap in the forecast', () => {
    const hours = statusHours('OOOO');
    hours.splice(2, 1);
    expect(okRuns(hours)).toHaveLength(2);
  });
});

/** Dry summer forecast, and 12 mm observed six days ago (no dry spell). */
function dryHours(): ForecastHour[] {
  return Array.from({ length: 48 }, (_, i) => ({
    timeMs: at(13 + i),
    values: { temperature: 21, humidity: 55, wind_speed: 8, dew_point: 10, solar: 400 },
    precipitationMm: 0,
  }));
}
const observed: ObservedMinute[] = [{ minute: (NOW - 6 * 24 * HOUR_MS) / MINUTE_MS, rainMm: 12, tempMinC: 12 }];
const current = {
  temperature: 21,
  precipitation_rate: 0,
  humidity: 55,
  wind_speed: 8,
  rain_1h: 0,
  rain_12h: 0,
  rain_24h: 0,
  rain_14d: 12,
  minutes_since_rain: 8640,
};

function forecastIndex(hours: ForecastHour[]): HourIndex[] {
  return indexHours(projectForecast({ nowMs: NOW, current, observed, hours }), context);
}

describe('forecast index', () => {
  it('rates a dry day as one long window', () => {
    const summary = summarizeForecast(forecastIndex(dryHours()), NOW, 90);
    expect(summary.nextWindow).toMatchObject({ startMs: NOW, endMs: at(60) });
    expect(summary.mowableForMinutes).toBe(48 * 60);
  });

  it('ends the window at a storm and reopens it only once the lawn has dried', () => {
    const hours = dryHours();
    hours[4]!.precipitationMm = 8;
    const index = forecastIndex(hours);
    const summary = summarizeForecast(index, NOW, 90);
    expect(summary.mowableForMinutes).toBe(4 * 60);
    expect(summary.rainExpectedInMinutes).toBe(4 * 60);
    expect(index[4]!.status).toBe('BLOCK');
    expect(summary.windows[1]!.startMs).toBeGreaterThan(at(18));
  });
});

describe('property: more forecast rain never lengthens a window', () => {
  const rainPlan = fc.array(
    fc.tuple(fc.double({ min: 0, max: 12, noNaN: true }), fc.double({ min: 0, max: 12, noNaN: true }), fc.integer({ min: 0, max: 100 })),
    {
      minLength: 48,
      maxLength: 48,
    },
  );

  it('every OK hour and window with more rain was one without it; mowable_for never grows', () => {
    fc.assert(
      fc.property(rainPlan, fc.integer({ min: 30, max: 240 }), (plan, minJob) => {
        const base = dryHours().map((hour, i) => ({ ...hour, precipitationMm: plan[i]![0], precipitationProbabilityPct: plan[i]![2] }));
        const wetter = base.map((hour, i) => ({ ...hour, precipitationMm: plan[i]![0] + plan[i]![1] }));
        const dry = forecastIndex(base);
        const wet = forecastIndex(wetter);
        for (const [i, hour] of wet.entries()) if (hour.status === 'OK') expect(dry[i]!.status).toBe('OK');
        const drySummary = summarizeForecast(dry, NOW, minJob);
        const wetSummary = summarizeForecast(wet, NOW, minJob);
        for (const window of wetSummary.windows) {
          expect(drySummary.windows.some((outer) => outer.startMs <= window.startMs && window.endMs <= outer.endMs)).toBe(true);
        }
        expect(wetSummary.mowableForMinutes ?? 0).toBeLessThanOrEqual(drySummary.mowableForMinutes ?? 0);
        const wetRain = wetSummary.rainExpectedInMinutes;
        if (drySummary.rainExpectedInMinutes !== null) expect(wetRain).not.toBeNull();
        if (wetRain !== null && drySummary.rainExpectedInMinutes !== null)
          expect(wetRain).toBeLessThanOrEqual(drySummary.rainExpectedInMinutes);
      }),
      { numRuns: 60 },
    );
  });
});
