import { describe, expect, it } from 'vitest';
import type { ForecastView, HourView } from '../../src/forecast/forecastReport.js';
import { forecastSummary } from '../../src/http/stationsView.js';
import { seededRandom as random } from '../helpers/seededRandom.js';

/** forecastSummary as it was before each hour's entry was kept with its hour object: the reference. */
function referenceSummary(forecast: ForecastView | undefined) {
  if (forecast === undefined) return null;
  const isoTime = (value: unknown): string | null =>
    typeof value === 'string' && Number.isFinite(Date.parse(value)) ? new Date(Date.parse(value)).toISOString() : null;
  const window = forecast.next_window;
  const start = isoTime(window?.start);
  const end = isoTime(window?.end);
  const hours = forecast.hours
    .map((hour) => ({ time: isoTime(hour.time), index: hour.index }))
    .filter((hour): hour is { time: string; index: number } => hour.time !== null && hour.index !== null)
    .slice(0, 14 * 24);
  return {
    available: forecast.available,
    next_window: start !== null && end !== null ? { start, end, min_index: window?.min_index ?? null } : null,
    rain_expected_in_minutes: forecast.rain_expected_in_minutes,
    hours,
  };
}

const BASE_MS = Date.UTC(2026, 5, 15, 0);

describe('forecastSummary keeps each hour entry with its hour object', () => {
  it('gives the same summaries as the reference over random sequences of kept and new hours', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
      // Hours as the forecast unit hands them on: most kept from the previous state, some made anew
      // (also for the same instant with another index: a re-rated hour), some with no index or an odd time text.
      const timeText = (hourNo: number): string => {
        const ms = BASE_MS + hourNo * 3_600_000;
        return pick([
          new Date(ms).toISOString(),
          new Date(ms).toISOString().replace('.000Z', 'Z'),
          new Date(ms).toISOString().replace('.000Z', '+00:00'),
          'not a time',
          '',
        ]);
      };
      const freshHour = (hourNo: number): HourView => ({
        time: timeText(hourNo),
        index: next() < 0.15 ? null : Math.floor(next() * 101),
        status: null,
        rain_mm: 0,
        rain_expected: false,
      });
      let first = Math.floor(next() * 24);
      let hours: HourView[] = Array.from({ length: 48 }, (_, i) => freshHour(first + i));
      for (let step = 0; step < 20; step++) {
        const shift = next() < 0.2 ? 1 : 0;
        first += shift;
        const length = next() < 0.05 ? 800 : 48; // 800: past the 14 days (336 hours) the page shows
        hours = Array.from({ length }, (_, i) => {
          const kept = hours[i + shift];
          return kept !== undefined && next() < 0.7 ? kept : freshHour(first + i);
        });
        const forecast: ForecastView = {
          source: 'open-meteo',
          available: next() < 0.9,
          fetched_at: null,
          age_minutes: null,
          stale: false,
          min_job_minutes: 60,
          next_window: next() < 0.5 ? null : { start: timeText(first + 1), end: timeText(first + 3), min_index: Math.floor(next() * 101) },
          mowable_for_minutes: null,
          rain_expected_in_minutes: next() < 0.5 ? null : Math.floor(next() * 600),
          attribution: null,
          hours,
        };
        const got = forecastSummary(forecast);
        expect(got, `seed ${seed}, step ${step}`).toStrictEqual(referenceSummary(forecast));
        // Asked again for the same state (the page's next poll before a rebuild): the same answer.
        expect(forecastSummary(forecast), `seed ${seed}, step ${step}, again`).toStrictEqual(got);
      }
    }
  }, 60_000);
});
