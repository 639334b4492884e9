/**
 * The lawn memory's derived inputs in the core: water on the blades lowers the rain check; an overdue
 * lawn after a long wet spell gets WARNING (K-State's advice) instead of BLOCK — never OK, and not while it rains.
 */
import { describe, expect, it } from 'vitest';
import { calculate, type CalculationContext } from '../../src/core/index.js';
import { OVERGROWTH_FLOOR, OVERGROWTH_REASON } from '../../src/core/lawnWetness.js';

const context: CalculationContext = { nowMs: Date.parse('2026-06-15T08:00:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' };
const dryMorning = {
  temperature: 18,
  precipitation_rate: 0,
  humidity: 60,
  wind_speed: 8,
  rain_1h: 0,
  rain_12h: 0,
  rain_24h: 0,
  minutes_since_rain: 2000,
};
/** The end of a wet spell: drizzle stopped 20 min ago, saturated air. */
const soggy = {
  temperature: 16,
  precipitation_rate: 0,
  humidity: 97,
  wind_speed: 4,
  rain_1h: 0.2,
  rain_12h: 4,
  rain_24h: 9,
  minutes_since_rain: 20,
};

function run(input: Record<string, unknown>) {
  const outcome = calculate(input, context);
  if (!outcome.ok) throw new Error('expected a result');
  return outcome.result;
}

describe('blade_drying_minutes', () => {
  it('is absent or 0: the result is unchanged', () => {
    expect(run({ ...dryMorning, blade_drying_minutes: 0 })).toEqual(run(dryMorning));
  });

  it.each([
    [10, 'WARNING'],
    [90, 'BLOCK'],
  ])('%i min to dry: rain check %s', (minutes, status) => {
    const result = run({ ...dryMorning, blade_drying_minutes: minutes });
    expect(result.checks.rain?.status).toBe(status);
    // 1.1: "Halme noch nass (Wasserbilanz)"; 1.2 phrases it like the stateless estimate.
    expect(result.checks.rain?.reasons.join(' ')).toMatch(/nach Wasserbilanz – <b>Rasen noch nass<\/b>, trocken in ca\./);
    expect(result.main_status).not.toBe('OK');
  });

  it('replaces the stateless estimate: the balance knows the blades dried in the afternoon', () => {
    // 20:00, rain ended 4 h ago; the evening's weak drying alone would keep the blades wet for hours.
    const evening = { temperature: 17, precipitation_rate: 0, humidity: 75, wind_speed: 4, solar: 0, minutes_since_rain: 240 };
    expect(run(evening).checks.rain?.status).toBe('BLOCK');
    const known = run({ ...evening, blade_drying_minutes: 0 });
    expect(known.checks.rain?.status).toBe('OK');
    expect(known.checks.rain?.meta.drying_minutes_left).toBe(0);
    const wet = run({ ...evening, blade_drying_minutes: 30 });
    expect(wet.checks.rain?.meta).toMatchObject({ drying_source: 'water_balance', drying_minutes_left: 30 });
  });

  it('never raises a score: more minutes to dry never raise the index', () => {
    let previous = 101;
    for (const minutes of [0, 5, 15, 30, 45, 60, 120, 240, 600]) {
      const score = run({ ...dryMorning, blade_drying_minutes: minutes }).index_score;
      expect(score).toBeLessThanOrEqual(previous);
      previous = score;
    }
  });
});

describe('overdue lawn after a wet spell', () => {
  const overdue = { mow_need: 90, wet_spell_hours: 72, blade_drying_minutes: 300 };

  it('is BLOCK without the lawn memory', () => {
    expect(run({ ...soggy, blade_drying_minutes: 300 }).main_status).toBe('BLOCK');
  });

  it("becomes WARNING with K-State's advice once the rain stopped", () => {
    const result = run({ ...soggy, ...overdue });
    expect(result.main_status).toBe('WARNING');
    expect(result.index_score).toBe(OVERGROWTH_FLOOR);
    expect(result.checks.rain?.reasons).toContain(OVERGROWTH_REASON);
  });

  it.each([
    ['while it rains', { precipitation_rate: 0.5 }],
    ['with mow need below 80', { mow_need: 70 }],
    ['after only a day of wet blades', { wet_spell_hours: 30 }],
    ['with frost (a BLOCK that is not about wetness)', { temperature: 1, min_temp_3h: -2 }],
  ])('stays BLOCK %s', (_name, change) => {
    expect(run({ ...soggy, ...overdue, ...change }).main_status).toBe('BLOCK');
  });
});
