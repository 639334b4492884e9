import { describe, expect, it } from 'vitest';
import { GROUND_FROST_NOW_CAP, frostCaps, groundFrostNow } from '../../src/core/frost.js';
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
    [6, 1, 300, false], // strong sun thaws the grass layer
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
    [{ temperature: 2, min_temp_3h: 3.5, solar: 400 }, 40, 'WARNING', 'Kühl (2 °C)'],
    [{ temperature: 6, min_temp_3h: 1, solar: 100 }, 30, 'BLOCK', 'Reif oder Bodenfrost auf den Halmen</b> (Luft min. 1 °C in 3 Stunden, jetzt 6 °C'],
    [{ temperature: 6, min_temp_3h: 1, solar: 400 }, 48, 'WARNING', 'Kühl (6 °C)'],
    [{ temperature: 6, min_temp_3h: -1, solar: 100 }, 30, 'BLOCK', 'Reif oder Bodenfrost'],
    [{ temperature: 6, min_temp_3h: -1, solar: 400 }, 48, 'WARNING', 'aufgetaut'],
  ])('temperature check for %j scores %d (%s)', (input, score, status, reason) => {
    const check = checkFor('temperature', input, 'autumn');
    expect(check.score).toBe(score);
    expect(check.status).toBe(status);
    expect(check.reasons.join(' ')).toContain(reason);
  });

  it('reports frost present when it is on the blades now', () => {
    expect(checkFor('temperature', { temperature: 6, min_temp_3h: 1, solar: 100 }, 'autumn').meta.frost).toBe('present');
    expect(checkFor('temperature', { temperature: 6, min_temp_3h: 1, solar: 400 }, 'autumn').meta.frost).toBe('none');
  });
});
