/**
 * An estimated soil moisture (context estimatedFields, the lawn memory's bucket) is not a measurement:
 * the spec's fields and data quality see a station without a sensor; only the rain check's soil load
 * and the dry-spell rule (D1) use it. Without the flag (the HTTP API) the same body is rated as measured.
 */
import { describe, expect, it } from 'vitest';
import { splitSoilEstimate, soilEstimateFor, SOIL_ESTIMATE_SOURCE } from '../../src/core/soilEstimate.js';
import { DRY_SPELL_CAP } from '../../src/core/drought.js';
import { contextAt, resultFor, SUMMER_NOON_MS } from './helpers.js';

const LOAM = { soilType: 'loam', mowerClass: 'robot', turfType: 'cool_season' } as const;
const estimated = contextAt(SUMMER_NOON_MS, { lawn: LOAM, estimatedFields: ['soil_moisture'] });
const measured = contextAt(SUMMER_NOON_MS, { lawn: LOAM });
// 12 mm of rain 3 h ago on a mild day: the residual rule (loam: 240–300 min) still holds the surface wet.
const afterRain = {
  temperature: 18,
  precipitation_rate: 0,
  humidity: 70,
  wind_speed: 8,
  solar: 400,
  soil_temperature: 15,
  rain_1h: 0,
  rain_12h: 12,
  rain_24h: 12,
  minutes_since_rain: 180,
  soil_moisture: 34,
};

describe('estimated soil moisture', () => {
  it('is taken out of the measured fields: available/missing and data quality as without a sensor', () => {
    const { soil_moisture: _omit, ...withoutSoil } = afterRain;
    const plain = resultFor(withoutSoil, measured);
    const withEstimate = resultFor(afterRain, estimated);
    expect(withEstimate.available_fields).toEqual(plain.available_fields);
    expect(withEstimate.missing_fields).toContain('soil_moisture');
    expect(withEstimate.data_quality).toBe(plain.data_quality);
    // The soiltemp check never rates an estimate (it would count the soil twice).
    expect(withEstimate.checks.soiltemp!.skipped_parts).toHaveProperty('load_bearing');
    expect(withEstimate.checks.soiltemp!.meta.soil_moisture_source).toBeNull();
  });

  it('replaces the rain-sum soil load and keeps the residual rule for the surface', () => {
    const rain = resultFor(afterRain, estimated).checks.rain!;
    expect(rain.meta.soil_load_source).toBe(SOIL_ESTIMATE_SOURCE);
    expect(rain.meta.models_executed).toEqual(['dry_down', 'residual_moisture', 'sml']);
    // Model 1.2: 34 % is s = 6/18 = 0.33 above field capacity: soft for a robot, WARNING (1.1: score 35, "nass").
    expect(rain.reasons.join(' ')).toContain('geschätzt: 34 % Bodenfeuchte nach Wasserbilanz, Lehmboden');
    expect(rain.reasons.join(' ')).toContain('Boden sehr feucht, eingeschränkt befahrbar');
  });

  it('the same body without the flag is a measurement, as the HTTP API rates it', () => {
    const rain = resultFor(afterRain, measured).checks.rain!;
    expect(rain.meta.soil_load_source).toBe('soil_moisture');
    expect(rain.meta.models_executed).not.toContain('residual_moisture');
    expect(resultFor(afterRain, measured).available_fields).toContain('soil_moisture');
  });

  it('the bucket drought signal replaces the rain-sum rule (D1)', () => {
    const dryDay = { temperature: 22, precipitation_rate: 0, humidity: 50, rain_24h: 0, rain_14d: 0 };
    // Loam: RAW ends at 28 − 0.4·(28 − 12) = 21.6 %.
    const stressed = resultFor({ ...dryDay, soil_moisture: 21.5 }, estimated).checks.temperature!;
    expect(stressed.score).toBe(DRY_SPELL_CAP);
    expect(stressed.reasons[0]).toContain('Trockenphase</b> (geschätzte Bodenfeuchte 21,5 % nach Wasserbilanz)');
    // Rain-free 14 days, but the bucket still holds readily available water: no dry spell.
    expect(resultFor({ ...dryDay, soil_moisture: 21.7 }, estimated).checks.temperature!.score).toBeGreaterThan(DRY_SPELL_CAP);
    // Without the estimate the rain-sum rule applies.
    expect(resultFor(dryDay, measured).checks.temperature!.score).toBe(DRY_SPELL_CAP);
  });

  it('reads the drought on the bucket scale when a configured field capacity was clamped at saturation', () => {
    // Loam saturation 46 %: a configured 60 % becomes 45 % in the bucket; 40 % on the 60 % scale is 30 % in it.
    expect(soilEstimateFor(40, { ...LOAM, fieldCapacityPercent: 60 }).drought).toBe(true);
    expect(soilEstimateFor(50, { ...LOAM, fieldCapacityPercent: 60 }).drought).toBe(false);
  });

  it('ignores an out-of-range estimate and a context without the flag', () => {
    expect(splitSoilEstimate({ soil_moisture: 140 }, { estimatedFields: ['soil_moisture'] })).toEqual({ input: {}, pct: undefined });
    const body = { soil_moisture: 20 };
    expect(splitSoilEstimate(body, { estimatedFields: ['rain_14d'] }).input).toBe(body);
    expect(splitSoilEstimate(body, null).input).toBe(body);
  });
});
