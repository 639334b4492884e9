import { describe, expect, it } from 'vitest';
import { HEAT_STRESS_CAP, HOT_SOIL_FROM_C, heatStressCap } from '../../src/core/heat.js';
import { checkFor } from './helpers.js';
import { FIELD_CAPACITY_PCT } from '../../src/core/soil.js';

describe('heat on an irrigated vs a stressed lawn (D5)', () => {
  it.each([
    // [air, extra input, cap]
    [26.9, { soil_moisture: 5 }, null],
    [27, { soil_moisture: 5 }, HEAT_STRESS_CAP], // loam w = 0.18: drought
    [27, { soil_moisture: 14 }, null], // loam w = 0.5: no drought
    [27, { soil_moisture: 13.9 }, HEAT_STRESS_CAP],
    [33, { soil_temperature: HOT_SOIL_FROM_C - 0.1 }, null],
    [33, { soil_temperature: HOT_SOIL_FROM_C }, HEAT_STRESS_CAP],
    [33, {}, null], // heat alone: the air curve rates it
  ])('air %d °C with %j caps at %s', (temperature, extra, cap) => {
    expect(heatStressCap({ temperature, precipitation_rate: 0, ...extra }, FIELD_CAPACITY_PCT.loam, temperature)?.cap ?? null).toBe(cap);
  });

  it.each([
    // [input, score, status, reason]
    [{ temperature: 33, soil_moisture: 24 }, 48, 'WARNING', 'Hitze 33 °C</b> – Hitzestress'],
    [{ temperature: 33, soil_moisture: 10 }, 30, 'BLOCK', 'Hitze 33 °C bei trockenem Boden'],
    [{ temperature: 33, soil_temperature: 33 }, 30, 'BLOCK', 'Hitze 33 °C, Boden 33 °C'],
    [{ temperature: 39 }, 30, 'BLOCK', 'Hitze 39 °C'],
  ])('temperature check for %j scores %d (%s)', (input, score, status, reason) => {
    const check = checkFor('temperature', input);
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons[0]).toContain(reason);
  });
});
