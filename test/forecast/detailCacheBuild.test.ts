/**
 * What a station's forecast builds keep for the next one (src/forecast/forecastReport.ts ForecastMemo,
 * src/core/forecastQuietHours.ts) never changes an answer: for random sequences of readings, minutes,
 * forecasts and clock steps, the detail and its compact form built with what the previous builds kept
 * equal (as JSON, key order included) the ones built from scratch with the quiet hours asked afresh.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, type ForecastHour, type ObservedHistory } from '../../src/core/forecastProjection.js';
import { QuietHoursTimeline } from '../../src/core/forecastQuietHours.js';
import { quietHoursReason, type QuietHoursSettings } from '../../src/core/lawn/quietHours.js';
import type { CalculationContext } from '../../src/core/index.js';
import { buildForecastDetail, compactForecast, ForecastMemo, type ReportRequest } from '../../src/forecast/forecastReport.js';
import { stateText } from '../../src/station/stateText.js';
import { parseOpenMeteo } from '../../src/openmeteo/openMeteoResponse.js';
import type { CachedForecast } from '../../src/store/forecastStore.js';
import { SLOW_TEST_TIMEOUT_MS } from '../helpers/wait.js';

const T0 = Date.parse('2026-10-24T21:17:23Z'); // the night before Berlin's autumn change, a Saturday
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const QUIET: QuietHoursSettings = {
  night: true,
  marginMinutes: 30,
  noise: { fromMin: 20 * 60, toMin: 7 * 60 },
  sundays: true,
  timeZone: 'Europe/Berlin',
  holidays: new Map([['2026-10-26', 'Test Day']]),
};

/** A recorded forecast moved so its first hour ends at `firstEndMs` (hours of `stepMinutes`: MQTT forecasts may be finer). */
function forecast(name: string, firstEndMs: number, stepMinutes = 60): ForecastHour[] {
  const parsed = parseOpenMeteo(JSON.parse(readFileSync(`test/fixtures/openMeteo/${name}.json`, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.hours.map((hour, i) => ({ ...hour, timeMs: firstEndMs + i * stepMinutes * MINUTE_MS }));
}

const FORECASTS = ['dryDay', 'wetSpell', 'afternoonThunderstorm', 'frostyMorning'] as const;

interface Step {
  /** Seconds the clock moves (negative: a step back). */
  seconds: number;
  forecast: number;
  stepMinutes: 30 | 60;
  temperature: number;
  rate: number;
  sinceRain: number;
  blade: number | undefined;
  observedRain: number;
}

const step = fc.record({
  seconds: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 40, max: 900 }), fc.integer({ min: -7200, max: 7200 })),
  forecast: fc.integer({ min: 0, max: FORECASTS.length - 1 }),
  stepMinutes: fc.constantFrom(30 as const, 60 as const, 60 as const, 60 as const),
  temperature: fc.constantFrom(4, 11.5, 18.25),
  rate: fc.constantFrom(0, 0, 0, 0.6),
  sinceRain: fc.integer({ min: 0, max: 3000 }),
  blade: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
  observedRain: fc.constantFrom(0, 0.2, 3.4),
});

function observed(rainMm: number): ObservedHistory {
  return {
    rainSince: (fromMs) => (fromMs < T0 - 6 * HOUR_MS ? rainMm + 1.25 : rainMm),
    minTempSince: (fromMs) => (fromMs < T0 - 48 * HOUR_MS ? -1.5 : 3.75),
  };
}

// A CPU-bound property: 4 s on a quiet machine, over 20 s on a loaded one.
describe('forecast builds that keep the previous build', { timeout: SLOW_TEST_TIMEOUT_MS }, () => {
  it('give the same detail and compact form as a build from scratch, for any sequence', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.constantFrom(0, 1), (steps, sameForecastObject) => {
        const memo = new ForecastMemo();
        const timeline = new QuietHoursTimeline(QUIET);
        let nowMs = T0;
        let held: CachedForecast | undefined;
        for (const s of steps as Step[]) {
          nowMs += s.seconds * 1000;
          const firstEnd = Math.floor(nowMs / HOUR_MS) * HOUR_MS + HOUR_MS;
          if (held === undefined || sameForecastObject === 0) {
            held = {
              source: 'open-meteo',
              fetchedAtMs: nowMs - 5 * MINUTE_MS,
              hours: forecast(FORECASTS[s.forecast]!, firstEnd, s.stepMinutes),
              validators: {},
            };
          }
          const current = {
            temperature: s.temperature,
            humidity: 71,
            wind_speed: 6,
            precipitation_rate: s.rate,
            rain_1h: s.rate / 2,
            rain_24h: 2,
            rain_14d: 20,
            min_temp_3d: 2,
            min_temp_14d: -1,
            minutes_since_rain: s.sinceRain,
            ...(s.blade !== undefined ? { blade_drying_minutes: s.blade } : {}),
          };
          const context: CalculationContext = { nowMs, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: { mowerClass: 'robot' } };
          const request: ReportRequest = {
            source: 'open-meteo',
            cached: held,
            nowMs,
            staleAfterMs: 3 * HOUR_MS,
            minJobMinutes: 90,
            current,
            observed: observed(s.observedRain),
            context,
          };
          // As the forecast unit asks: once per stretch with the same quiet-hours cause (allowedUntil).
          const allowedUntil = (ms: number) => {
            const { cause, untilMs } = timeline.causeUntil(ms, BERLIN);
            return { allowed: cause === undefined, untilMs };
          };
          const kept = buildForecastDetail({
            ...request,
            memo,
            rules: { rainLeadMinutes: 30, allowedAt: (ms) => timeline.allowedAt(ms, BERLIN), allowedUntil },
          });
          const fresh = buildForecastDetail({
            ...request,
            rules: { rainLeadMinutes: 30, allowedAt: (ms) => quietHoursReason(ms, BERLIN, QUIET) === undefined },
          });
          expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh));
          expect(JSON.stringify(compactForecast(kept, memo))).toBe(JSON.stringify(compactForecast(fresh)));
          // The state carries the compact form's kept text, put together from the kept hours' texts.
          expect(stateText({ station: 's', forecast: compactForecast(kept, memo), mowable: true })).toBe(
            JSON.stringify({ station: 's', forecast: compactForecast(fresh), mowable: true }),
          );
        }
      }),
      { numRuns: 60 },
    );
  });

  it('rates again only the hours whose input changed', () => {
    const memo = new ForecastMemo();
    const hours = forecast('dryDay', T0 - (T0 % HOUR_MS) + HOUR_MS);
    const cached: CachedForecast = { source: 'open-meteo', fetchedAtMs: T0, hours, validators: {} };
    const build = (nowMs: number, temperature: number) =>
      buildForecastDetail({
        source: 'open-meteo',
        cached,
        nowMs,
        staleAfterMs: 3 * HOUR_MS,
        minJobMinutes: 90,
        memo,
        observed: observed(0),
        current: { temperature, humidity: 70, wind_speed: 5, precipitation_rate: 0, rain_14d: 20 },
        context: { nowMs, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: {} },
      });
    const first = build(T0, 12);
    const second = build(T0 + 40_000, 13);
    // The first hour starts now (new instant, new temperature); every later hour is taken over as it was.
    expect(second.hours[0]).not.toBe(first.hours[0]);
    expect(second.hours.slice(1)).toEqual(first.hours.slice(1));
    for (let i = 1; i < first.hours.length; i++) expect(second.hours[i]).toBe(first.hours[i]);
    expect(compactForecast(second, memo)).toBe(compactForecast(second, memo));
    expect(compactForecast(second, memo)).toEqual(compactForecast(second));
    // Another lawn profile is another calculation: nothing is taken over.
    const other = buildForecastDetail({
      source: 'open-meteo',
      cached,
      nowMs: T0 + 40_000,
      staleAfterMs: 3 * HOUR_MS,
      minJobMinutes: 90,
      memo,
      observed: observed(0),
      current: { temperature: 13, humidity: 70, wind_speed: 5, precipitation_rate: 0, rain_14d: 20 },
      context: { nowMs: T0, timeZone: 'Europe/Berlin', hemisphere: 'north', lawn: { soilType: 'clay' } },
    });
    for (let i = 1; i < first.hours.length; i++) expect(other.hours[i]).not.toBe(first.hours[i]);
  });
});
