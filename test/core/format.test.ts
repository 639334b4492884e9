import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumberDe } from '../../src/core/format.js';

/** The reference: how the reasons were formatted before the integer path. */
function reference(value: number, decimals = 1): string {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  const normalised = Object.is(rounded, -0) ? 0 : rounded;
  return String(normalised).replace('.', ',');
}

describe('formatNumberDe', () => {
  it('writes exactly what String writes, with a decimal comma, for any number and 0–3 decimals', () => {
    const values = fc.oneof(
      fc.double({ noNaN: false }),
      fc.double({ min: -1e4, max: 1e4 }),
      fc.integer({ min: -2_000_000, max: 2_000_000 }).map((n) => n / 1000),
      fc.integer({ min: -10_000, max: 10_000 }).map((n) => n / 100 + 0.005),
      fc.constantFrom(
        0,
        -0,
        0.05,
        -0.05,
        0.049,
        -0.049,
        0.15,
        1.005,
        2.675,
        99999.95,
        1e8,
        99_999_999.95,
        1e9,
        -1e12,
        1e21,
        Infinity,
        -Infinity,
        NaN,
      ),
    );
    fc.assert(
      fc.property(values, fc.constantFrom(undefined, 0, 1, 2, 3, 4, 6), (value, decimals) => {
        expect(formatNumberDe(value, decimals)).toBe(reference(value, decimals));
      }),
      { numRuns: 20_000 },
    );
  });

  it('drops trailing zeros and keeps leading ones of the fraction', () => {
    expect(formatNumberDe(12.5)).toBe('12,5');
    expect(formatNumberDe(3.04, 2)).toBe('3,04');
    expect(formatNumberDe(3.1, 2)).toBe('3,1');
    expect(formatNumberDe(-0.004, 2)).toBe('0');
    expect(formatNumberDe(-7.25, 1)).toBe(reference(-7.25, 1));
    expect(formatNumberDe(1.0005, 3)).toBe(reference(1.0005, 3));
    expect(formatNumberDe(42, 0)).toBe('42');
  });
});
