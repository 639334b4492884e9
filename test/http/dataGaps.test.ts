/** The Missing row as data: missing fields grouped by why (history windows, held-back values, not reported). */
import { describe, expect, it } from 'vitest';
import { dataGaps } from '../../src/http/dataGaps.js';

describe('dataGaps', () => {
  it('a new station: nine history fields become one group with the longest window and how much of it is covered', () => {
    const missing = [
      'wind_gusts',
      'solar',
      'rain_12h',
      'rain_24h',
      'rain_14d',
      'minutes_since_rain',
      'min_temp_3h',
      'min_temp_3d',
      'min_temp_14d',
      'precipitation_rate',
    ];
    const withheld = Object.fromEntries(
      missing.filter((field) => !['wind_gusts', 'solar'].includes(field)).map((field) => [field, 'history covers …']),
    );
    const coverage = {
      rain_1h: 1,
      rain_12h: 0.167,
      rain_24h: 0.083,
      rain_14d: 0.006,
      min_temp_3h: 0.667,
      min_temp_3d: 0.028,
      min_temp_14d: 0.006,
    };
    expect(dataGaps(missing, withheld, coverage)).toEqual({
      history: {
        kinds: ['rain', 'temperature'],
        // The most any window holds (0.006 of 14 days; the 3-hour window says 120).
        covered_minutes: 121,
        needed_minutes: 14 * 1440,
        covered_percent: 0,
        required_percent: 90,
        fields: ['rain_12h', 'rain_24h', 'rain_14d', 'minutes_since_rain', 'min_temp_3h', 'min_temp_3d', 'min_temp_14d'],
      },
      not_current: ['precipitation_rate'],
      not_reported: ['wind_gusts', 'solar'],
    });
  });

  it('only the temperature minima short; nonsense coverage counts as none; nothing missing: no groups', () => {
    const gaps = dataGaps(
      ['min_temp_3d'],
      { min_temp_3d: 'history covers 50% …' },
      { min_temp_3d: 0.5, min_temp_3h: 'x', rain_14d: Number.NaN },
    );
    expect(gaps.history).toMatchObject({ kinds: ['temperature'], needed_minutes: 3 * 1440, covered_percent: 50, covered_minutes: 2160 });
    expect(dataGaps([], {}, {})).toEqual({ history: null, not_current: [], not_reported: [] });
  });
});
