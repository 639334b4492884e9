import { describe, expect, it } from 'vitest';
import { calculate } from '../../src/core/calculate.js';
import { GROUND_FROST_NOW_CAP, frostCaps, frostOnBladesAt, groundFrostNow, nightFrostOnBlades } from '../../src/core/frost.js';
import { frostThawed, grassMinimumC, hoarfrostOnBlades } from '../../src/core/grassMinimum.js';
import { checkFor } from './helpers.js';

describe('frost on the blades now vs cold air (D6)', () => {
  it.each([
    // [air now, min_temp_3h, solar, frost now?]
    [6, 1, 100, true],
    [6, 3, 100, true],
    [6, 3.1, 100, false],
    [7.9, 1, undefined, true],
    [8, 1, 100, false], // warm enough to have thawed
    [6, 1, 299, true],
    [6, 1, 300, false], // strong sun thaws the grass layer once the air rose 3 K since its minimum
    [3.9, 1, 600, true], // model 1.2: strong sun, but the air rose only 2.9 K: not yet thawed (1.1: false)
    [4, 1, 600, false], // risen 3 K in strong sun: thawed
    [3, undefined, undefined, true], // the reading itself is the 3-hour minimum
    [3.1, undefined, undefined, false],
    [4, 3.5, 150, false],
  ])('air %d °C, 3-hour minimum %s °C, solar %s W/m²: %s', (temperature, minTemp3h, solar, expected) => {
    expect(groundFrostNow(temperature, minTemp3h, solar)).toBe(expected);
  });

  it('adds the BLOCK cap only above 0 °C (frozen air has its own cap)', () => {
    expect(frostCaps(6, 1, undefined, 100).map((entry) => entry.cap)).toContain(GROUND_FROST_NOW_CAP);
    expect(frostCaps(-1, undefined, undefined, 100).map((entry) => entry.cap)).not.toContain(GROUND_FROST_NOW_CAP);
  });

  it.each([
    // [input, score, status, reason]
    [{ temperature: 4, min_temp_3h: 3.5, solar: 150 }, 43, 'WARNING', 'Kühl (4 °C)'],
    // Model 1.2: the air is at its minimum now, so the sun has not yet made up the grass layer's 3 K (1.1: 40 WARNING).
    [{ temperature: 2, min_temp_3h: 3.5, solar: 400 }, 30, 'BLOCK', 'Reif oder Bodenfrost auf den Halmen'],
    [
      { temperature: 6, min_temp_3h: 1, solar: 100 },
      30,
      'BLOCK',
      'Reif oder Bodenfrost auf den Halmen</b> (Luft min. 1 °C in 3 Stunden, am Boden etwa -2 °C; jetzt 6 °C',
    ],
    [{ temperature: 6, min_temp_3h: 1, solar: 400 }, 48, 'WARNING', 'Kühl (6 °C)'],
    [{ temperature: 6, min_temp_3h: -1, solar: 100 }, 30, 'BLOCK', 'Reif oder Bodenfrost'],
    [{ temperature: 6, min_temp_3h: -1, solar: 400 }, 48, 'WARNING', 'aufgetaut'],
  ])('temperature check for %j scores %d (%s)', (input, score, status, reason) => {
    const check = checkFor('temperature', input, 'autumn');
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons.join(' ')).toContain(reason);
  });

  it.each([
    // Ground frost from the air minimum (model 1.2, src/core/grassMinimum.ts): breakpoints of the grass minimum.
    // [2 m air minimum, estimated grass minimum, hoarfrost?]
    [3, 0, true],
    [3.1, 0.1, false],
    [0.5, -2.5, true],
  ])('a 2 m minimum of %d °C gives a grass minimum of %d °C: hoarfrost %s', (airMin, grassMin, expected) => {
    expect(grassMinimumC(airMin)).toBeCloseTo(grassMin, 6);
    expect(hoarfrostOnBlades(5, airMin, 100)).toBe(expected);
  });

  it.each([
    // [air now, air minimum, solar, thawed?]
    [8, 0.5, 0, true], // warm air
    [7.9, 0.5, 299, false],
    [3.5, 0.5, 300, true], // sun, risen 3 K
    [3.4, 0.5, 300, false],
    [3.5, 0.5, undefined, false],
  ])('air %d °C after a %d °C minimum with %s W/m²: thawed %s', (temperature, airMin, solar, expected) => {
    expect(frostThawed(temperature, airMin, solar)).toBe(expected);
  });

  it('reports frost present when it is on the blades now', () => {
    expect(checkFor('temperature', { temperature: 6, min_temp_3h: 1, solar: 100 }, 'autumn').meta.frost).toBe('present');
    expect(checkFor('temperature', { temperature: 6, min_temp_3h: 1, solar: 400 }, 'autumn').meta.frost).toBe('none');
  });
});

describe('grass frost of the night (model 1.3)', () => {
  // The case a greenkeeper judged wrong in 1.2: +1 °C air minimum overnight (more than 3 hours back), 6 °C at 09:00.
  const NIGHT = {
    temperature: 6,
    precipitation_rate: 0,
    humidity: 80,
    wind_speed: 5,
    solar: 150,
    soil_temperature: 8,
    rain_24h: 0,
    rain_14d: 20,
    minutes_since_rain: 3000,
    min_temp_3h: 4.5,
    min_temp_3d: 1,
    min_temp_14d: 1,
  };
  const at = (iso: string) => ({ nowMs: Date.parse(iso), timeZone: 'Europe/Berlin', hemisphere: 'north' as const });

  it('blocks the 09:00 morning after a +1 °C night until the blades have thawed (calculate)', () => {
    const outcome = calculate(NIGHT, at('2026-10-14T07:00:00Z'));
    if (!outcome.ok) throw new Error('calculation failed');
    expect(outcome.result.main_status).toBe('BLOCK');
    expect(outcome.result.index_score).toBe(39);
    expect(outcome.result.score_basis.limiting_check).toBe('temperature');
    expect(outcome.result.checks.temperature?.meta.frost).toBe('present');
    expect(outcome.result.checks.temperature?.reasons[0]).toContain('Reif von der Nacht auf den Halmen');
    // One fact, one reason: "Bodenfrost möglich" is not said beside it.
    expect(outcome.result.checks.temperature?.reasons.join(' ')).not.toContain('Bodenfrost möglich');
  });

  it.each([
    // [air now, 3-day minimum, solar, local hour, frost of the night on the blades?]
    [6, 1, 150, 9, true],
    [6, 3, 150, 9, true], // grass minimum 0 °C
    [6, 3.1, 150, 9, false],
    [7.9, 1, 150, 11, true],
    [8, 1, 150, 9, false], // warm enough to have thawed
    [5, 1, 400, 10, false], // strong sun and 4 K above the minimum
    [3.9, 1, 400, 10, true], // strong sun, but only 2.9 K above the minimum
    [6, 1, 150, 12, false], // from noon the 3-day minimum no longer stands in for the night's
    [6, 1, 150, undefined, false], // no local time (a direct check test): the rule is off
    [6, undefined, 150, 9, false],
  ])('air %d °C, 3-day minimum %s °C, %s W/m², hour %s: %s', (temperature, minTemp3d, solar, hour, expected) => {
    expect(nightFrostOnBlades(temperature, minTemp3d, solar, hour)).toBe(expected);
  });

  it('frostOnBladesAt agrees with the BLOCK of the temperature check over a morning', () => {
    for (let hour = 5; hour <= 13; hour++) {
      const ms = Date.parse(`2026-10-14T${String(hour - 2).padStart(2, '0')}:00:00Z`); // CEST = UTC+2
      const outcome = calculate(NIGHT, at(new Date(ms).toISOString()));
      if (!outcome.ok) throw new Error('calculation failed');
      const blocked = (outcome.result.checks.temperature?.score ?? 100) <= GROUND_FROST_NOW_CAP;
      expect([hour, frostOnBladesAt(NIGHT, ms, 'Europe/Berlin')]).toEqual([hour, blocked]);
    }
  });
});
