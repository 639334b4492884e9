/** The forecast entities' templates, rendered with a real Jinja engine against state payloads. */
import { describe, expect, it } from 'vitest';
import { forecastEntities } from '../../src/forecast/forecastEntities.js';
import { renderHaTemplate } from '../helpers/haTemplate.js';

const template = (key: string): string => String(forecastEntities().find((entity) => entity.key === key)!.config.value_template);
const withForecast = {
  forecast: {
    source: 'open-meteo',
    fetched_at: '2026-06-15T10:00:00.000Z',
    stale: false,
    next_window: { start: '2026-06-15T14:00:00.000Z', end: '2026-06-15T18:30:00.000Z', min_index: 80 },
    mowable_for_minutes: 0,
    rain_expected_in_minutes: 300,
  },
};

describe('forecast entity templates', () => {
  it.each([
    ['next_window_start', '2026-06-15T14:00:00.000Z'],
    ['next_window_end', '2026-06-15T18:30:00.000Z'],
    ['mowable_for', '0'],
    ['rain_expected_in', '300'],
    ['forecast_source', 'open-meteo'],
    ['forecast_updated', '2026-06-15T10:00:00.000Z'],
    ['forecast_stale', 'OFF'],
  ])('%s reads %s from the state', (key, expected) => {
    expect(renderHaTemplate(template(key), withForecast)).toBe(expected);
  });

  it('shows unknown for a missing window, no rain expected, and a state without a forecast', () => {
    const none = { forecast: { ...withForecast.forecast, next_window: null, rain_expected_in_minutes: null, stale: true } };
    expect(renderHaTemplate(template('next_window_start'), none)).toBe('None');
    expect(renderHaTemplate(template('rain_expected_in'), none)).toBe('None');
    expect(renderHaTemplate(template('forecast_stale'), none)).toBe('ON');
    expect(renderHaTemplate(template('next_window_end'), { index_score: 80 })).toBe('None');
    expect(renderHaTemplate(template('forecast_stale'), { index_score: 80 })).toBe('ON');
  });
});
