import { describe, expect, it } from 'vitest';
import { checkFor } from '../helpers.js';

describe('temperature check', () => {
  it.each([
    [-5, 0, 'BLOCK'],
    [0, 0, 'BLOCK'],
    // Model 1.1 (D6): without min_temp_3h and solar, air ≤ 3 °C means frost on the blades now (cap 30);
    // cold but frost-free air is WARNING.
    [1.5, 30, 'BLOCK'],
    [3, 30, 'BLOCK'],
    [4, 43, 'WARNING'],
    [5, 45, 'WARNING'],
    [5.2, 46, 'WARNING'],
    [6, 48, 'WARNING'],
    [8, 55, 'WARNING'],
    [9.9, 69, 'WARNING'],
    [10, 70, 'OK'],
    [12, 85, 'OK'],
    [15, 100, 'OK'],
    [24, 100, 'OK'],
    [27, 85, 'OK'],
    [28.5, 70, 'OK'],
    [29, 65, 'WARNING'],
    [30, 55, 'WARNING'],
    // Model 1.1 (D5): heat alone (an irrigated lawn) is WARNING up to 38 °C.
    [31.2, 52, 'WARNING'],
    [32, 50, 'WARNING'],
    [34, 45, 'WARNING'],
    [38, 40, 'WARNING'],
    [39, 30, 'BLOCK'],
    [40, 20, 'BLOCK'],
    [45, 0, 'BLOCK'],
    [50, 0, 'BLOCK'],
  ])('air %d °C in summer scores %d (%s)', (temperature, score, status) => {
    const check = checkFor('temperature', { temperature });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
  });

  it.each([
    // [air, min_temp_3h, expected score, reason fragment]
    [4, -1, 20, 'Frost in den letzten 3 Stunden</b> (min. -1 °C)'],
    [4, 0, 20, 'gefrorene Halme brechen'],
    [8, -1, 55, 'aufgetaut'],
    [12, 0, 60, 'aufgetaut'],
    [20, -0.5, 60, 'aufgetaut'],
    [12, 0.1, 85, 'Lufttemperatur 12 °C'],
    [20, 2, 100, 'gute Wachstumsbedingungen'],
    [-2, -4, 0, 'Rasen gefroren'],
  ])('air %d °C with min_temp_3h %d scores %d', (temperature, minTemp3h, score, reason) => {
    const check = checkFor('temperature', { temperature, min_temp_3h: minTemp3h });
    expect(check.score).toBe(score);
    expect(check.reasons.join(' ')).toContain(reason);
  });

  it('caps at 80 after frost in the last three days', () => {
    expect(checkFor('temperature', { temperature: 20, min_temp_3d: 0 }).score).toBe(80);
    expect(checkFor('temperature', { temperature: 20, min_temp_3d: 0.1 }).score).toBe(100);
  });

  it.each([
    ['winter', -10, 65, false], // model 1.1 (D4): no dormancy without cold soil; the 14-day frost rule applies
    ['winter', 3, 100, true],
    ['summer', -10, 100, true],
    ['spring', -2, 65, false],
    ['spring', -1.9, 100, true],
    ['autumn', -2, 65, false],
    ['autumn', 5, 100, true],
  ] as const)('in %s with min_temp_14d %d caps at %d', (season, minTemp14d, score, stable) => {
    const check = checkFor('temperature', { temperature: 20, min_temp_14d: minTemp14d }, season);
    expect(check.score).toBe(score);
    expect(check.meta.growth_phase_stable).toBe(stable);
  });

  it('names winter rest and late frost in German', () => {
    expect(checkFor('temperature', { temperature: 20, soil_temperature: 3 }, 'summer').reasons.join(' ')).toContain('Winterruhe');
    expect(checkFor('temperature', { temperature: 20, min_temp_14d: -3 }, 'winter').reasons.join(' ')).toContain(
      'Frost in den letzten 14 Tagen',
    );
    expect(checkFor('temperature', { temperature: 20, min_temp_14d: -3 }, 'spring').reasons.join(' ')).toContain('Spätfrost');
    expect(checkFor('temperature', { temperature: 20, min_temp_14d: -3 }, 'autumn').reasons.join(' ')).toContain('Frühfrost');
    expect(checkFor('temperature', { temperature: 33.4 }).reasons[0]).toContain('Hitze 33,4 °C');
  });

  it('reports a missing growth-phase input as a skipped part, but not in summer or dormancy', () => {
    const spring = checkFor('temperature', { temperature: 20, min_temp_3h: 10, min_temp_3d: 8 }, 'spring');
    expect(spring.skipped_parts).toEqual({ growth_phase: { reason: expect.any(String), missing: ['min_temp_14d'] } });
    expect(spring.meta.growth_phase_stable).toBeNull();
    expect(spring.data_confidence).toBe('medium');
    const summer = checkFor('temperature', { temperature: 20, min_temp_3h: 10, min_temp_3d: 8 }, 'summer');
    expect(summer.skipped_parts).toEqual({});
  });

  it('is high confidence with the full temperature history and carries the spec meta keys', () => {
    const check = checkFor('temperature', { temperature: 20, min_temp_3h: 10, min_temp_3d: 8, min_temp_14d: 4 }, 'spring');
    expect(check.data_confidence).toBe('high');
    expect(check.skipped_parts).toEqual({});
    expect(check.meta).toMatchObject({ temperature: 20, season: 'spring', min_temp_14d: 4, growth_phase_stable: true });
  });
});

describe('temperature check: an old frost stops mattering (D4, part)', () => {
  it.each([
    // [min_temp_14d, min_temp_3d, score, stable]
    [-3, 4, 100, true], // frost 4–14 days ago, last 3 days frost-free
    [-3, 0.1, 100, true],
    [-3, 0, 65, false], // the frost is recent (the 3-day frost cap applies as well)
    [-3, undefined, 65, false], // age unknown: still unstable
    [-1.9, undefined, 100, true],
  ])('in spring with min_temp_14d %d and min_temp_3d %s scores %d', (minTemp14d, minTemp3d, score, stable) => {
    const check = checkFor('temperature', { temperature: 20, min_temp_14d: minTemp14d, min_temp_3d: minTemp3d }, 'spring');
    expect(check.score).toBe(score);
    expect(check.meta.growth_phase_stable).toBe(stable);
  });
});
