import { describe, expect, it } from 'vitest';
import { INTERCEPTION_STORAGE_MM, dryingMinutesFor } from '../../src/core/drying.js';
import { parseExtensions } from '../../src/core/parse.js';
import { checkFor, resultFor, subScore } from './helpers.js';

describe('minutes_since_irrigation (model 1.1 extension)', () => {
  // Model 1.2: a sprinkler run fills the interception storage, which dries at the wet-canopy rate of now.
  const SUN = { temperature: 26, humidity: 45, wind_speed: 12, solar: 750 };
  const sunMinutes = dryingMinutesFor(INTERCEPTION_STORAGE_MM, { temperatureC: 26, humidityPct: 45, windKmh: 12, solarWm2: 750 });

  it.each([
    // [minutes since the run, as a share of the drying time; 1.1 result in the comment]
    [0, 15], // 1.1: 15 (180-minute lock whatever the weather)
    [0.5, 40], // 1.1: 20
    [1, 70], // 1.1: 40
    [2, 85], // 1.1: 70 (BLOCK an hour after watering in full sun was the 1.1 complaint)
  ])('%d drying times after a sprinkler run in full summer sun', (share, atLeast) => {
    const check = checkFor('rain', { ...SUN, minutes_since_rain: 5000, minutes_since_irrigation: Math.round(share * sunMinutes) });
    expect(subScore(check, 'surface_wetness')).toBeGreaterThanOrEqual(atLeast);
    expect(check.meta.drying_source).toBe('irrigation');
  });

  it('an hour after watering in full summer sun is no longer BLOCK', () => {
    // 1.1: surface wetness 26.7 (BLOCK), "Abtrocknung dauert ca. 3 Stunden" whatever the sun.
    const check = checkFor('rain', { ...SUN, minutes_since_rain: 5000, minutes_since_irrigation: 60 });
    expect(check.status).not.toBe('BLOCK');
    expect(sunMinutes).toBeLessThan(90);
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

  it('wets the blades like rain in the rain check (no sun, humid: BLOCK an hour later)', () => {
    const check = checkFor('rain', { humidity: 85, minutes_since_rain: 5000, minutes_since_irrigation: 60 });
    expect(subScore(check, 'surface_wetness')).toBe(15);
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
