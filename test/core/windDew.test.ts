import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_WIND_LIFT_K, windLiftK } from '../../src/core/windDew.js';
import { checkFor } from './helpers.js';

describe('wind lifts the humidity check (D2)', () => {
  it.each([
    // [dew-point spread K, wind km/h, lift K]
    [1.5, undefined, 0],
    [1.5, 0, 0],
    [1.5, 11, 0],
    [1.5, 15.5, 1],
    [1.5, 20, MAX_WIND_LIFT_K],
    [1.5, 60, MAX_WIND_LIFT_K],
    [1, 20, MAX_WIND_LIFT_K],
    [0.99, 20, 0], // fog or dew already on the blades: wind does not help
    [0, 40, 0],
  ])('spread %d K with wind %s km/h lifts by %d K', (dpd, wind, lift) => {
    expect(windLiftK(dpd, wind)).toBeCloseTo(lift, 10);
  });

  it.each([
    // [humidity %, wind km/h, score, status, reason]
    [89, 22, 71, 'OK', 'keine Taubildung'],
    [89, 15.5, 51, 'WARNING', 'Taubildung möglich'],
    [89, 8, 31, 'BLOCK', 'Taubildung, Halme sind nass'],
    [97, 25, 15, 'BLOCK', 'Taubildung, Halme sind nass'],
  ])('at 14 °C, RH %d %% and %d km/h the humidity check scores %d (%s)', (humidity, wind, score, status, reason) => {
    const check = checkFor('humidity', { temperature: 14, humidity, wind_speed: wind });
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons[0]).toContain(reason);
  });

  it('names the wind in the reasons and the meta', () => {
    const check = checkFor('humidity', { temperature: 14, humidity: 89, wind_speed: 22 });
    expect(check.reasons.join(' ')).toContain('Wind (22 km/h) belüftet den Rasen');
    expect(check.meta.wind_lift_k).toBe(2);
    expect(checkFor('humidity', { temperature: 14, humidity: 89 }).meta.wind_lift_k).toBe(0);
  });

  it('more wind never lowers the humidity score (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -20, max: 45, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 300, noNaN: true }),
        fc.double({ min: 0, max: 300, noNaN: true }),
        fc.option(fc.double({ min: 0, max: 2000, noNaN: true }), { nil: undefined }),
        (temperature, humidity, a, b, solar) => {
          const base = { temperature, humidity, ...(solar === undefined ? {} : { solar }) };
          const calmer = checkFor('humidity', { ...base, wind_speed: Math.min(a, b) });
          const windier = checkFor('humidity', { ...base, wind_speed: Math.max(a, b) });
          expect(windier.score).toBeGreaterThanOrEqual(calmer.score ?? 101);
        },
      ),
      { numRuns: 300 },
    );
  });
});
