import { describe, expect, it } from 'vitest';
import {
  FIELD_CAPACITY_PCT,
  fieldCapacityPct,
  isValidFieldCapacity,
  loadBearingClass,
  relativeWetness,
  wetnessScore,
} from '../../src/core/soil.js';
import { piecewiseLinear } from '../../src/core/piecewise.js';
import { SOFT_SOIL_CURVES, saturationShare, trafficClass, trafficScore } from '../../src/core/softSoil.js';
import type { LawnProfile } from '../../src/core/types.js';
import { checkFor, contextAt, resultFor, SUMMER_NOON_MS } from './helpers.js';

describe('field capacity as a lawn setting (D9)', () => {
  it('defaults by soil type and takes the lawn setting when given', () => {
    expect(FIELD_CAPACITY_PCT).toEqual({ sand: 12, loam: 28, clay: 38 });
    expect(fieldCapacityPct({ soilType: 'loam' })).toBe(28);
    expect(fieldCapacityPct({ soilType: 'clay' })).toBe(38);
    expect(fieldCapacityPct({ soilType: 'loam', fieldCapacityPercent: 16.4 })).toBe(16.4);
  });

  it.each([
    [5, true],
    [60, true],
    [4.99, false],
    [60.01, false],
    [0, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['28', false],
    [null, false],
  ])('accepts %s as a field capacity: %s', (value, valid) => {
    expect(isValidFieldCapacity(value)).toBe(valid);
  });

  it.each([
    // [soil moisture %, field capacity %, w, load-bearing class, wetness score of a walk-behind mower]
    [23.8, 28, 0.85, 'firm', 100],
    [28, 28, 1, 'moist', 80],
    [23.8, 16.4, 1.45, 'saturated', 10], // the same reading under Carsel & Parrish's loam value
    [13.9, 16.4, 0.848, 'firm', 100],
    [19.6, 16.4, 1.195, 'wet', 26],
  ])('%d %% at field capacity %d %%: w %d, %s, score %d', (moisture, fc, w, bearing, score) => {
    expect(relativeWetness(moisture, fc)).toBeCloseTo(w, 2);
    expect(loadBearingClass(moisture, fc, 'walk')).toBe(bearing);
    expect(wetnessScore(moisture, fc, 'walk')).toBeCloseTo(score, 0);
  });

  it('rates a measured soil moisture against the lawn setting in the soiltemp and rain checks', () => {
    const input = { soil_temperature: 15, soil_moisture: 24 };
    const byType = checkFor('soiltemp', input);
    expect(byType.meta).toMatchObject({ field_capacity: 28, field_capacity_source: 'soil_type', load_bearing: 'moist' });
    // Model 1.2: 24 % is 6 points above a field capacity of 18 % (s = 0.21): soft, WARNING for a walk-behind (1.1: saturated, BLOCK).
    const calibrated = checkFor('soiltemp', input, 'summer', { fieldCapacityPercent: 18 });
    expect(calibrated.meta).toMatchObject({ field_capacity: 18, field_capacity_source: 'lawn_setting', load_bearing: 'limited' });
    expect(calibrated.status).toBe('WARNING');
    expect(checkFor('soiltemp', { ...input, soil_moisture: 40 }, 'summer', { fieldCapacityPercent: 18 }).meta.load_bearing).toBe(
      'saturated',
    );
    expect(checkFor('rain', { soil_moisture: 40, rain_24h: 0 }, 'summer', { fieldCapacityPercent: 18 }).status).toBe('BLOCK');
  });

  it('ignores an out-of-range lawn setting (the soil type default applies) and never throws', () => {
    for (const bad of [0, 2, 61, Number.NaN, '30', null]) {
      const result = resultFor(
        { temperature: 18, precipitation_rate: 0, soil_temperature: 15, soil_moisture: 24 },
        contextAt(SUMMER_NOON_MS, { lawn: { fieldCapacityPercent: bad as number } }),
      );
      expect(result.checks.soiltemp?.meta.field_capacity).toBe(28);
    }
  });

  it('lets the drought threshold of the heat rule follow the field capacity', () => {
    // 13 % is drought on loam (w = 0.46 < 0.5) but not on a lawn with a 20 % field capacity (w = 0.65).
    expect(checkFor('temperature', { temperature: 30, soil_moisture: 13 }).score).toBe(30);
    expect(checkFor('temperature', { temperature: 30, soil_moisture: 13 }, 'summer', { fieldCapacityPercent: 20 }).score).toBe(55);
  });
});

describe('soft soil above field capacity', () => {
  const lawns: LawnProfile[] = [
    { soilType: 'loam', mowerClass: 'walk', turfType: 'cool_season' },
    { soilType: 'clay', mowerClass: 'ride_on', turfType: 'cool_season' },
    { soilType: 'sand', mowerClass: 'robot', turfType: 'warm_season', fieldCapacityPercent: 20 },
  ];

  it('scores exactly as the curve that starts at the score at field capacity (every 0.05 %)', () => {
    for (const lawn of lawns) {
      const fc = fieldCapacityPct(lawn);
      const atFc = wetnessScore(fc, fc, lawn.mowerClass);
      for (let centi = 0; centi <= 10_000; centi += 5) {
        const pct = centi / 100;
        const expected =
          pct <= fc
            ? wetnessScore(pct, fc, lawn.mowerClass)
            : piecewiseLinear([[0, atFc], ...SOFT_SOIL_CURVES[lawn.mowerClass]], saturationShare(pct, lawn));
        expect(Object.is(trafficScore(pct, lawn), expected)).toBe(true);
      }
    }
  });

  it('names the same class with or without the score given', () => {
    for (const lawn of lawns) {
      for (let pct = 0; pct <= 100; pct += 0.5) expect(trafficClass(pct, lawn, trafficScore(pct, lawn))).toBe(trafficClass(pct, lawn));
    }
  });
});
