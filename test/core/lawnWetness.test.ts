/**
 * The lawn memory's derived inputs in the core: water on the blades lowers the rain check; an overdue
 * lawn after a long wet spell gets WARNING (K-State's advice) instead of BLOCK — never OK, and not while it rains.
 */
import { describe, expect, it } from 'vitest';
import { calculate, type CalculationContext } from '../../src/core/index.js';
import { OVERGROWTH_FLOOR, OVERGROWTH_REASON } from '../../src/core/lawnWetness.js';

const context: CalculationContext = { nowMs: Date.parse('2026-06-15T08:00:00Z'), timeZone: 'Europe/Berlin', hemisphere: 'north' };
const dryMorning = { temperature: 18, precipitation_rate: 0, humidity: 60, wind_speed: 8, rain_1h: 0, rain_12h: 0, rain_24h: 0, minutes_since_rain: 2000 };
/** The end of a wet spell: drizzle stopped 20 min ago, saturated air. */
const soggy = { temperature: 16, precipitation_rate: 0, humidity: 97, wind_speed: 4, rain_1h: 0.2, rain_12h: 4, rain_24h: 9, minutes_since_rain: 20 };

function run(input: Record<string, unknown>) {
  const outcome = calculate(input, context);
  if (!outcome.ok) throw new Error('expected a result');
  return outcome.result;
}

describe('blade_drying_minutes', () => {
  it('is absent or 0: the result is unchanged', () => {
    expect(run({ ...dryMorning, blade_drying_minutes: 0 })).toEqual(run(dryMorning));
  });

  it.each([[10, 'WARNING'], [90, 'BLOCK']])('%i min to dry: rain check %s', (minutes, status) => {
    const result = run({ ...dryMorning, blade_drying_minutes: minutes });
    expect(result.checks.rain?.status).toBe(status);
    expect(result.checks.rain?.reasons.join(' ')).toMatch(/Halme noch nass/);
    expect(result.main_status).not.toBe('OK');
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

  it('becomes WARNING with K-State\'s advice once the rain stopped', () => {
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
