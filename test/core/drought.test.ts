import { describe, expect, it } from 'vitest';
import { DRY_SPELL_CAP, DRY_SPELL_HEAT_CAP, DRY_SPELL_RAIN_14D_MM, droughtCap, isDrySpell } from '../../src/core/drought.js';
import { checkFor } from './helpers.js';

describe('dry spell without a soil sensor (D1)', () => {
  it.each([
    // [rain_14d, rain_24h, season, soil_moisture, dry spell?]
    [0, undefined, 'summer', undefined, true],
    [4.9, undefined, 'summer', undefined, true],
    [DRY_SPELL_RAIN_14D_MM, undefined, 'summer', undefined, false],
    [0, 6, 'summer', undefined, false], // rain of the last 24 h counts into the 14 days
    [0, undefined, 'spring', undefined, true],
    [0, undefined, 'autumn', undefined, true],
    [0, undefined, 'winter', undefined, false], // no growing season
    [0, undefined, 'summer', 20, false], // a measured soil moisture replaces the estimate
    [undefined, 0, 'summer', undefined, false], // no 14-day sum: nothing known
  ] as const)('rain_14d %s, rain_24h %s in %s with soil_moisture %s: %s', (rain14d, rain24h, season, soilMoisture, expected) => {
    const values = { temperature: 20, precipitation_rate: 0, rain_14d: rain14d, rain_24h: rain24h, soil_moisture: soilMoisture };
    expect(isDrySpell(values, season)).toBe(expected);
  });

  it.each([
    // [air °C, cap]
    [20, DRY_SPELL_CAP],
    [26.9, DRY_SPELL_CAP],
    [27, DRY_SPELL_HEAT_CAP],
    [33, DRY_SPELL_HEAT_CAP],
  ])('caps the temperature check at %d °C to %d', (temperature, cap) => {
    expect(droughtCap({ temperature, precipitation_rate: 0, rain_14d: 0 }, 'summer', temperature)?.cap).toBe(cap);
  });

  it.each([
    // [air °C, score, status, reason]
    [22, 60, 'WARNING', 'Trockenphase</b> (0 mm Regen in 14 Tagen)'],
    [26.9, 60, 'WARNING', 'Trockenphase'],
    [27, 30, 'BLOCK', 'Trockenstress und Hitze</b> (0 mm Regen in 14 Tagen, 27 °C)'],
  ])('temperature check at %d °C after 14 dry days scores %d (%s)', (temperature, score, status, reason) => {
    const check = checkFor('temperature', { temperature, rain_14d: 0 });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons[0]).toContain(reason);
    expect(check.meta.dry_spell).toBe(true);
  });

  it('leaves the temperature check alone with a measured soil moisture or enough rain', () => {
    expect(checkFor('temperature', { temperature: 22, rain_14d: 0, soil_moisture: 8 }).score).toBe(100);
    expect(checkFor('temperature', { temperature: 22, rain_14d: 5 }).score).toBe(100);
    expect(checkFor('temperature', { temperature: 22, rain_14d: 5 }).meta.dry_spell).toBe(false);
  });
});
