import { describe, expect, it } from 'vitest';
import { piecewiseLinear, scaleCurveX, shiftCurveX } from '../../src/core/piecewise.js';
import type { Curve } from '../../src/core/piecewise.js';

const CURVE: Curve = [
  [0, 10],
  [10, 50],
  [20, 0],
];

describe('piecewiseLinear', () => {
  it.each([
    [-5, 10],
    [0, 10],
    [5, 30],
    [10, 50],
    [15, 25],
    [20, 0],
    [100, 0],
  ])('at x=%d gives %d (flat outside, linear between)', (x, y) => {
    expect(piecewiseLinear(CURVE, x)).toBeCloseTo(y, 10);
  });

  it('gives NaN for an empty curve and for NaN input', () => {
    expect(piecewiseLinear([], 1)).toBeNaN();
    expect(piecewiseLinear(CURVE, Number.NaN)).toBeNaN();
  });

  it('scales and shifts breakpoints on the x axis', () => {
    expect(scaleCurveX(CURVE, 2)).toEqual([
      [0, 10],
      [20, 50],
      [40, 0],
    ]);
    expect(shiftCurveX(CURVE, 1)).toEqual([
      [1, 10],
      [11, 50],
      [21, 0],
    ]);
  });
});
