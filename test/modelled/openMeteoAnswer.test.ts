/**
 * The pure parts of a modelled station: an Open-Meteo answer as readings (what is refused as a
 * whole, what is dropped value by value, what is left for the next round) and how far back a
 * request reaches.
 */
import { describe, expect, it } from 'vitest';
import { parseModelledAnswer } from '../../src/ingest/formats/openMeteo.js';
import { currentUrl, modelledUrl, pastSpan } from '../../src/modelled/modelledRequest.js';

const HOUR_MS = 3_600_000;
const NOW = Date.parse('2026-06-15T10:20:00Z');
const T = Date.parse('2026-06-15T09:00:00Z') / 1000;

function refusal(body: unknown): string {
  const parsed = parseModelledAnswer(body, NOW);
  return parsed.ok ? 'accepted' : parsed.reason;
}

describe('an Open-Meteo answer as readings', () => {
  it("refuses what is not the provider's shape, with the reason", () => {
    expect(refusal([])).toBe('the answer is not a JSON object');
    expect(refusal({ error: true, reason: 'Latitude must be in range of -90 to 90°.' })).toMatch(/provider refused the request: Latitude/);
    expect(refusal({ error: true })).toMatch(/no reason given/);
    expect(refusal({ latitude: 52 })).toMatch(/neither "hourly" nor "current"/);
    expect(refusal({ hourly: 'none' })).toBe('"hourly" is not an object');
    expect(refusal({ hourly: {} })).toMatch(/no "hourly.time" list/);
    expect(refusal({ hourly: { time: Array.from({ length: 433 }, (_, i) => T + i * 3600) } })).toMatch(/more than 432 hours/);
    expect(refusal({ hourly: { time: [T], temperature_2m: 20 } })).toBe('hourly.temperature_2m is not a list');
    expect(refusal({ hourly: { time: [T, T] } })).toMatch(/hourly.time\[1\] is not a Unix time after the one before/);
    expect(refusal({ current: 'now' })).toBe('"current" is not an object');
    expect(refusal({ current: { time: 'soon' } })).toBe('current.time is not a Unix time');
    expect(refusal({ current: { time: T, interval: 5 } })).toMatch(/current.interval/);
  });

  it('keeps the past hours with values, drops implausible ones, and turns the current rain into a rate', () => {
    const parsed = parseModelledAnswer(
      {
        hourly: {
          time: [T - 3600, T, T + 3600, T + 7200],
          temperature_2m: [null, 12, 14, 15],
          precipitation: [null, 0.4, 'x', 1],
          relative_humidity_2m: [null, 130, 70, 70],
        },
        current: { time: T + 4500, interval: 900, temperature_2m: 14.5, precipitation: 0.25, soil_moisture_3_to_9cm: 0.3 },
      },
      NOW,
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    // The hour before T has nothing (left for the next round); T+7200 lies in the future.
    expect(parsed.answer.hours.map((hour) => hour.payloadTimeMs)).toEqual([T * 1000, (T + 3600) * 1000]);
    expect(parsed.answer.hours[0]).toMatchObject({
      values: { temperature: 12 },
      rainDeltaMm: 0.4,
      dropped: [expect.stringMatching(/relative_humidity_2m: 130 % is implausible/)],
    });
    expect(parsed.answer.hours[1]!.rainDeltaMm).toBeUndefined();
    expect(parsed.answer.current).toMatchObject({
      values: { temperature: 14.5, precipitation_rate: 1, soil_moisture: 30 },
      payloadTimeMs: (T + 4500) * 1000,
    });
    const empty = parseModelledAnswer({ current: { time: T, temperature_2m: null } }, NOW);
    expect(empty).toEqual({ ok: true, answer: { hours: [] } });
  });
});

describe('how far back a request reaches', () => {
  it('asks for 14 days first, the missing hours within a day, and days beyond', () => {
    expect(pastSpan(null, NOW)).toEqual({ pastDays: 14 });
    expect(pastSpan(NOW - 20 * 60_000, NOW)).toEqual({ pastHours: 3 });
    expect(pastSpan(NOW - 7 * HOUR_MS, NOW)).toEqual({ pastHours: 8 });
    expect(pastSpan(NOW - 50 * HOUR_MS, NOW)).toEqual({ pastDays: 3 });
    expect(pastSpan(NOW - 40 * 24 * HOUR_MS, NOW)).toEqual({ pastDays: 14 });
    const url = new URL(modelledUrl('http://example.org/om/', { latitude: 52.5, longitude: 13.4, elevation: 34 }, { pastHours: 3 }));
    expect(url.pathname).toBe('/om/v1/forecast');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      elevation: '34',
      past_hours: '3',
      forecast_days: '7',
      timeformat: 'unixtime',
    });
    expect(new URL(currentUrl('http://example.org', { latitude: 1, longitude: 2, elevation: 3 })).searchParams.get('elevation')).toBe('3');
  });
});
