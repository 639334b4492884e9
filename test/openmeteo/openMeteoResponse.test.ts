/** The forecast's Open-Meteo request asks for seven days in one request; an answer of 14 past days and 7 ahead is accepted, a longer one refused. */
import { describe, expect, it } from 'vitest';
import { MAX_FORECAST_HOURS, openMeteoUrl, parseOpenMeteo } from '../../src/openmeteo/openMeteoResponse.js';

describe('the Open-Meteo forecast request', () => {
  it('asks for two past hours and seven days ahead', () => {
    const url = new URL(openMeteoUrl('https://api.open-meteo.com', { latitude: 48.14, longitude: 11.58 }));
    expect(url.searchParams.get('forecast_days')).toBe('7');
    expect(url.searchParams.get('past_hours')).toBe('2');
  });

  it('accepts 14 past days and 7 ahead, refuses more', () => {
    const hours = (count: number) => ({ hourly: { time: Array.from({ length: count }, (_, i) => 1_781_000_000 + i * 3600) } });
    expect(parseOpenMeteo(hours(24 * 21 + 24)).ok).toBe(true);
    expect(parseOpenMeteo(hours(MAX_FORECAST_HOURS + 1))).toEqual({
      ok: false,
      reason: `the response has more than ${MAX_FORECAST_HOURS} hours`,
    });
  });
});
