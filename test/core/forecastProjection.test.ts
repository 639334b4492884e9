/**
 * The forecast projection: observed rain keeps counting down the windows while
 * forecast rain enters them; minimum temperatures likewise; the first hour
 * starts from what the station reports now.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, projectForecast, type ForecastHour, type ObservedMinute } from '../../src/core/forecastProjection.js';
import { RAIN_EXPECTED_MM, expectedRainMm, isRainExpected } from '../../src/core/forecastRain.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const at = (hh: number): number => NOW + (hh - 12) * HOUR_MS;

/** Dry, mild forecast hours ending at 13:00 ... 12:00 two days later (a 12 °C dip at 15:00), with rain where `rain` says. */
function forecastHours(rain: Record<number, number> = {}, probability?: number): ForecastHour[] {
  return Array.from({ length: 48 }, (_, i) => {
    const hh = 13 + i;
    return {
      timeMs: at(hh),
      values: { temperature: hh === 15 ? 12 : 20, humidity: 60, wind_speed: 8, dew_point: 9 },
      precipitationMm: rain[hh] ?? 0,
      ...(probability === undefined ? {} : { precipitationProbabilityPct: probability }),
    };
  });
}

/** 2 mm of rain in the minute before 09:00 (3 h ago), a cold minute at 06:00, dry minutes between. */
const observed: ObservedMinute[] = [
  { minute: at(9) / MINUTE_MS - 1, rainMm: 2, tempMinC: 11 },
  { minute: at(6) / MINUTE_MS, rainMm: 0, tempMinC: 4 },
  { minute: at(11) / MINUTE_MS, rainMm: 0, tempMinC: 15 },
];
const current = {
  temperature: 19,
  precipitation_rate: 0,
  humidity: 55,
  wind_speed: 6,
  rain_1h: 0,
  rain_12h: 2,
  rain_24h: 2,
  rain_14d: 12,
  minutes_since_rain: 180,
  min_temp_3h: 15,
  min_temp_3d: 4,
};

describe('projectForecast', () => {
  // Forecast rain in 5 h: the hour 17:00-18:00 (named by its end, 18:00) brings 3 mm.
  const hours = projectForecast({ nowMs: NOW, current, observed, hours: forecastHours({ 18: 3 }) });
  const byEnd = new Map(hours.map((hour) => [hour.endMs, hour]));

  it.each([
    // end hour, rain_1h, rain_12h, rain_24h, minutes_since_rain, rain expected
    [13, 0, 2, 2, 240, false],
    [17, 0, 2, 2, 480, false],
    [18, 3, 5, 5, 0, true],
    [19, 0, 5, 5, 60, false],
    [20, 0, 5, 5, 120, false],
    // The observed rain (08:59) leaves the 12-hour window at 21:00; the forecast rain stays.
    [21, 0, 3, 5, 180, false],
    [33, 0, 0, 3, 900, false],
    // 18:00 next day: the forecast rain has left the 24-hour window.
    [42, 0, 0, 0, 1440, false],
  ])('hour ending %i:00: rain_1h %d, rain_12h %d, rain_24h %d, minutes_since_rain %d', (hh, r1, r12, r24, since, expected) => {
    const hour = byEnd.get(at(hh))!;
    expect(hour.input).toMatchObject({ rain_1h: r1, rain_12h: r12, rain_24h: r24, minutes_since_rain: since });
    expect(hour.rainExpected).toBe(expected);
  });

  it('keeps the 14-day sum counting observed and forecast rain', () => {
    expect(byEnd.get(at(13))!.input.rain_14d).toBe(2);
    expect(byEnd.get(at(18))!.input.rain_14d).toBe(5);
  });

  it('names where each value came from', () => {
    expect(byEnd.get(at(13))!.inputSource).toMatchObject({
      temperature: 'observed',
      rain_1h: 'forecast',
      rain_12h: 'combined',
      minutes_since_rain: 'combined',
    });
    expect(byEnd.get(at(14))!.inputSource).toMatchObject({
      temperature: 'forecast',
      precipitation_rate: 'forecast',
      min_temp_3h: 'combined',
    });
    expect(byEnd.get(at(15))!.inputSource.min_temp_3h).toBe('forecast');
    expect(byEnd.get(at(18))!.inputSource.minutes_since_rain).toBe('forecast');
  });

  it("starts the first hour now, from the station's current values", () => {
    expect(hours[0]).toMatchObject({ startMs: NOW, endMs: at(13) });
    expect(hours[0]!.input).toMatchObject({ temperature: 19, humidity: 55, wind_speed: 6, dew_point: 9 });
    expect(hours[1]).toMatchObject({ startMs: at(13), endMs: at(14) });
    expect(hours[1]!.input.temperature).toBe(20);
  });

  it('projects minimum temperatures over observed and forecast values', () => {
    // 3-day window ending 13:00 reaches back over the 4 °C minute at 06:00.
    expect(byEnd.get(at(13))!.input.min_temp_3d).toBe(4);
    // The 3-hour windows ending 16:00 and 19:00 lie wholly in the forecast: the dip, then past it.
    expect(byEnd.get(at(16))!.input.min_temp_3h).toBe(12);
    expect(byEnd.get(at(19))!.input.min_temp_3h).toBe(20);
  });

  it('withholds windows the station does not supply until the forecast covers them alone', () => {
    const sparse = projectForecast({ nowMs: NOW, current: { temperature: 19, precipitation_rate: 0 }, observed, hours: forecastHours() });
    expect(sparse[0]!.input.rain_12h).toBeUndefined();
    expect(sparse[0]!.input.minutes_since_rain).toBeUndefined();
    expect(sparse[0]!.input.rain_1h).toBe(0);
    expect(sparse[11]!.input.rain_12h).toBe(0);
  });

  it('limits the projection to 48 hours and drops hours already past', () => {
    const past: ForecastHour = { timeMs: at(11), values: { temperature: 30 } };
    const far: ForecastHour = { timeMs: at(12 + 60), values: { temperature: 30 } };
    const projected = projectForecast({ nowMs: NOW, current, observed, hours: [past, ...forecastHours(), far] });
    expect(projected).toHaveLength(48);
    expect(projected.every((hour) => hour.endMs > NOW && hour.endMs <= NOW + 48 * HOUR_MS)).toBe(true);
  });

  it('weighs rain by its probability', () => {
    const likely = projectForecast({ nowMs: NOW, current, observed, hours: forecastHours({ 18: 3 }, 50) });
    expect(likely.find((hour) => hour.endMs === at(18))).toMatchObject({ expectedRainMm: 1.5, rainExpected: true });
    const unlikely = projectForecast({ nowMs: NOW, current, observed, hours: forecastHours({ 18: 1 }, 10) });
    expect(unlikely.find((hour) => hour.endMs === at(18))).toMatchObject({ expectedRainMm: 0.1, rainExpected: false });
  });
});

describe('the probability rule', () => {
  it.each([
    [10, 30, 3],
    [2, undefined, 2],
    [2, 0, 0],
    [2, 150, 2],
    [-1, 50, 0],
    [Number.NaN, 50, 0],
  ])('%d mm at %s %% → %d mm expected', (amount, probability, expected) => {
    expect(expectedRainMm(amount, probability)).toBeCloseTo(expected);
  });

  it('calls rain expected from one gauge tip on', () => {
    expect(isRainExpected(RAIN_EXPECTED_MM)).toBe(true);
    expect(isRainExpected(RAIN_EXPECTED_MM - 0.01)).toBe(false);
  });
});
