import { describe, expect, it } from 'vitest';
import { DORMANCY_CAP, DORMANT_AIR_BELOW_C, DORMANT_SOIL_BELOW_C, dormancy } from '../../src/core/dormancy.js';
import { checkFor } from './helpers.js';

describe('dormancy from the lawn state (D4)', () => {
  it('defines the breakpoints per turf type', () => {
    expect(DORMANT_SOIL_BELOW_C).toEqual({ cool_season: 5, warm_season: 10 });
    expect(DORMANT_AIR_BELOW_C).toEqual({ cool_season: 10, warm_season: 15 });
  });

  it.each([
    // [turf, soil °C, air °C, min_temp_3h, min_temp_3d, evidence]
    ['cool_season', 4.9, 20, undefined, undefined, 'soil_temperature'],
    ['cool_season', 5, 2, -3, -5, null], // a measured soil temperature decides alone
    ['cool_season', 13, 16, 11, 8, null], // Lisbon in January
    ['warm_season', 9.9, 25, undefined, undefined, 'soil_temperature'],
    ['warm_season', 10, 12, undefined, undefined, null],
    ['cool_season', undefined, 9.9, undefined, 0, 'frost_and_cold_air'],
    ['cool_season', undefined, 10, undefined, -4, null],
    ['cool_season', undefined, 9.9, 0, undefined, 'frost_and_cold_air'],
    ['cool_season', undefined, 9.9, 0.1, 0.1, null], // cold air without frost
    ['cool_season', undefined, 9.9, undefined, undefined, null], // no frost history: no evidence
    ['cool_season', undefined, -1, undefined, undefined, 'frost_and_cold_air'], // freezing now
    ['warm_season', undefined, 14.9, undefined, -1, 'frost_and_cold_air'],
    ['warm_season', undefined, 15, undefined, -1, null],
  ] as const)('%s, soil %s °C, air %d °C, min 3 h %s, min 3 d %s: %s', (turf, soilC, airC, min3h, min3d, evidence) => {
    const values = { temperature: airC, precipitation_rate: 0, soil_temperature: soilC, min_temp_3h: min3h, min_temp_3d: min3d };
    const result = dormancy(values, turf);
    expect(result?.evidence ?? null).toBe(evidence);
    if (result !== null) expect(result.cap).toBe(DORMANCY_CAP);
  });

  it('caps the temperature check in any calendar season and names the evidence', () => {
    const cold = checkFor('temperature', { temperature: 20, soil_temperature: 4 }, 'summer');
    expect(cold.score).toBe(DORMANCY_CAP);
    expect(cold.reasons[0]).toContain('Winterruhe</b> (Boden 4 °C)');
    expect(cold.meta).toMatchObject({ dormancy: 'soil_temperature', growth_phase: 'dormant', growth_phase_stable: false });
    const frosty = checkFor('temperature', { temperature: 9, min_temp_3d: -2 }, 'spring');
    expect(frosty.score).toBe(DORMANCY_CAP);
    expect(frosty.reasons.join(' ')).toContain('Winterruhe</b> (Frost in den letzten Tagen, Luft 9 °C)');
    expect(frosty.skipped_parts.growth_phase).toBeUndefined();
  });

  it('does not cap a mild winter day with growing soil', () => {
    const mild = checkFor('temperature', { temperature: 16, soil_temperature: 13 }, 'winter');
    expect(mild.score).toBe(100);
    expect(mild.meta).toMatchObject({ dormancy: null, growth_phase: 'active' });
    expect(mild.reasons.join(' ')).not.toContain('Winterruhe');
  });

  it('uses the warm-season soil threshold for a warm-season lawn', () => {
    const soil = { temperature: 20, soil_temperature: 8 };
    expect(checkFor('temperature', soil, 'winter').meta.dormancy).toBeNull();
    expect(checkFor('temperature', soil, 'winter', { turfType: 'warm_season' }).meta.dormancy).toBe('soil_temperature');
  });
});
