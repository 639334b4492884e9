/** A curve as `x:y` breakpoints with strictly increasing x. */
export type Curve = readonly (readonly [x: number, y: number])[];

/**
 * Piecewise-linear interpolation: linear between breakpoints, flat outside
 * them. Every curve of the model (docs/model.md) goes through this one helper.
 */
export function piecewiseLinear(curve: Curve, x: number): number {
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first === undefined || last === undefined || Number.isNaN(x)) return Number.NaN;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < curve.length; i += 1) {
    const right = curve[i];
    const left = curve[i - 1];
    if (right === undefined || left === undefined) break;
    if (x <= right[0]) {
      const share = (x - left[0]) / (right[0] - left[0]);
      return left[1] + share * (right[1] - left[1]);
    }
  }
  return last[1];
}

/** Returns the curve with every x multiplied by `factor` (soil-type scaling). */
export function scaleCurveX(curve: Curve, factor: number): Curve {
  return curve.map(([x, y]) => [x * factor, y] as const);
}

/** Returns the curve with every x moved by `offset` (mower-class shift). */
export function shiftCurveX(curve: Curve, offset: number): Curve {
  return curve.map(([x, y]) => [x + offset, y] as const);
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
