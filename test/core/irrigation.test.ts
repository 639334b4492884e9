import { describe, expect, it } from 'vitest';
import { IRRIGATION_DRYING_MIN, irrigationWetness } from '../../src/core/irrigation.js';
import { parseExtensions } from '../../src/core/parse.js';
import { checkFor, resultFor, subScore } from './helpers.js';

describe('minutes_since_irrigation (model 1.1 extension)', () => {
  it.each([
    [0, 15],
    [45, 20],
    [90, 40],
    [IRRIGATION_DRYING_MIN, 70],
    [270, 90],
    [360, 100],
  ])('%d minutes after a sprinkler run scores %d', (minutes, score) => {
    expect(irrigationWetness({ minutes_since_irrigation: minutes })?.score).toBe(score);
  });

  it.each([
    ['30', 30],
    [99999, 99999],
    [100000, undefined],
    [-1, undefined],
    ['abc', undefined],
    [Number.NaN, undefined],
  ])('parses %j as %s', (value, expected) => {
    expect(parseExtensions({ minutes_since_irrigation: value }).minutes_since_irrigation).toBe(expected);
  });

  it('wets the blades like light rain in the rain check', () => {
    const check = checkFor('rain', { minutes_since_rain: 5000, minutes_since_irrigation: 60 });
    expect(subScore(check, 'surface_wetness')).toBeCloseTo(26.7, 1);
    expect(check.status).toBe('BLOCK');
    expect(check.reasons[0]).toContain('Bewässerung vor 60 Minuten – <b>Rasen noch nass</b>');
    expect(check.meta.limiting_factor).toBe('surface_wetness');
  });

  it('never makes fresh rain look drier', () => {
    const check = checkFor('rain', { minutes_since_rain: 10, minutes_since_irrigation: 5000 });
    expect(subScore(check, 'surface_wetness')).toBeLessThan(20);
  });

  it('stays out of available_fields and missing_fields', () => {
    const result = resultFor({ temperature: 20, precipitation_rate: 0, humidity: 50, minutes_since_irrigation: 30 });
    expect(result.available_fields).toEqual(['temperature', 'precipitation_rate', 'humidity']);
    expect(result.missing_fields).not.toContain('minutes_since_irrigation');
    expect(result.main_status).toBe('BLOCK');
  });
});
