import { describe, expect, it } from 'vitest';
import { TURF_PROFILES } from '../../src/core/turf.js';
import { TURF_TYPES } from '../../src/core/vocabulary.js';
import { checkFor, contextAt, resultFor } from './helpers.js';

const WARM = { turfType: 'warm_season' as const };

describe('turf type in the lawn profile', () => {
  it('lists cool_season first (the default)', () => {
    expect(TURF_TYPES).toEqual(['cool_season', 'warm_season']);
  });

  it.each([
    // [air °C, cool-season score, warm-season score]
    [10, 70, 55],
    [15, 100, 70],
    [30, 55, 100],
    [35, 44, 100],
    [38, 40, 55],
    [40, 20, 40],
  ])('air %d °C scores %d on cool-season and %d on warm-season turf', (temperature, cool, warm) => {
    expect(checkFor('temperature', { temperature }).score).toBe(cool);
    expect(checkFor('temperature', { temperature }, 'summer', WARM).score).toBe(warm);
  });

  it.each([
    // [soil °C, cool-season score, warm-season score]
    [8, 74, 52],
    [10, 85, 55],
    [18, 100, 100],
    [33, 43, 95],
  ])('soil %d °C scores %d on cool-season and %d on warm-season turf', (soilTemperature, cool, warm) => {
    expect(checkFor('soiltemp', { soil_temperature: soilTemperature }).score).toBe(cool);
    expect(checkFor('soiltemp', { soil_temperature: soilTemperature }, 'summer', WARM).score).toBe(warm);
  });

  it('moves the heat edge of the drought and heat-stress caps', () => {
    expect(checkFor('temperature', { temperature: 30, rain_14d: 0 }).score).toBe(30);
    expect(checkFor('temperature', { temperature: 30, rain_14d: 0 }, 'summer', WARM).score).toBe(60);
    expect(checkFor('temperature', { temperature: 36, rain_14d: 0 }, 'summer', WARM).score).toBe(30);
    expect(checkFor('temperature', { temperature: 33, soil_temperature: 35 }, 'summer', WARM).score).toBe(100);
    expect(TURF_PROFILES.warm_season.hotSoilFromC).toBeGreaterThan(TURF_PROFILES.cool_season.hotSoilFromC);
  });

  it('reports the turf type and ignores unknown values', () => {
    expect(checkFor('soiltemp', { soil_temperature: 15 }, 'summer', WARM).meta.turf_type).toBe('warm_season');
    const unknown = resultFor(
      { temperature: 12, precipitation_rate: 0, soil_temperature: 15 },
      contextAt(Date.UTC(2026, 6, 1), { lawn: { turfType: 'x' as never } }),
    );
    expect(unknown.checks.soiltemp?.meta.turf_type).toBe('cool_season');
  });
});
