import { describe, expect, it } from 'vitest';
import { THAW_CAP, thawCap } from '../../src/core/thaw.js';
import { checkFor } from './helpers.js';

describe('snowmelt and thaw without a moisture sensor (D10)', () => {
  it.each([
    // [soil °C, min_temp_3d, season, soil_moisture, cap]
    [1.5, -4, 'spring', undefined, THAW_CAP],
    [2, -4, 'spring', undefined, THAW_CAP],
    [2.1, -4, 'spring', undefined, null],
    [0, -4, 'spring', undefined, null], // frozen soil has its own (lower) score
    [1.5, 0, 'winter', undefined, THAW_CAP],
    [1.5, 0.1, 'spring', undefined, null], // no sub-zero days
    [1.5, undefined, 'spring', undefined, null],
    [1.5, -4, 'autumn', undefined, null],
    [1.5, -4, 'spring', 30, null], // a measured soil moisture replaces the estimate
  ] as const)('soil %d °C, min_temp_3d %s in %s, soil_moisture %s: cap %s', (soilC, min3d, season, moisture, cap) => {
    const values = { temperature: 6, precipitation_rate: 0, soil_temperature: soilC, min_temp_3d: min3d, soil_moisture: moisture };
    expect(thawCap(values, season)?.cap ?? null).toBe(cap);
  });

  it('blocks the soiltemp check with a German reason', () => {
    const check = checkFor('soiltemp', { soil_temperature: 1.5, min_temp_3d: -4 }, 'spring');
    expect(check.score).toBe(THAW_CAP);
    expect(check.status).toBe('BLOCK');
    expect(check.reasons[0]).toContain('Tauwetter</b> (Boden 1,5 °C nach Frost bis -4 °C)');
    expect(check.meta.thaw).toBe(true);
    expect(checkFor('soiltemp', { soil_temperature: 1.5, min_temp_3d: 1 }, 'spring').score).toBe(42);
  });
});
