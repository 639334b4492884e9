import { describe, expect, it } from 'vitest';
import { GROUND_FROST_NOW_CAP, frostCaps, groundFrostNow } from '../../src/core/frost.js';
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
