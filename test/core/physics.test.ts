import { describe, expect, it } from 'vitest';
import {
  beaufortForKmh,
  dewPointMagnusC,
  dryingPotential,
  saturationVapourPressureKpa,
  vapourPressureDeficitKpa,
} from '../../src/core/physics.js';

describe('dewPointMagnusC', () => {
  it.each([
    // reference values of the Magnus form with a = 17.62, b = 243.12 °C
    [20, 50, 9.26],
    [10, 62, 3.05],
    [0, 80, -3.0],
    [30, 30, 10.5],
    [15, 100, 15],
  ])('at %d °C and %d %% RH is %d °C', (tempC, humidityPct, expected) => {
    expect(dewPointMagnusC(tempC, humidityPct)).toBeCloseTo(expected, 1);
  });

  it('stays finite at 0 % humidity', () => {
    expect(Number.isFinite(dewPointMagnusC(20, 0))).toBe(true);
    expect(dewPointMagnusC(20, 0)).toBeLessThan(-40);
  });
});

describe('vapour pressure', () => {
  it('matches the FAO-56 saturation vapour pressure table', () => {
    expect(saturationVapourPressureKpa(20)).toBeCloseTo(2.338, 3);
    expect(saturationVapourPressureKpa(10)).toBeCloseTo(1.228, 3);
    expect(vapourPressureDeficitKpa(20, 100)).toBe(0);
    expect(vapourPressureDeficitKpa(20, 50)).toBeCloseTo(1.169, 3);
  });
});

describe('dryingPotential', () => {
  it('is 1 with strong sun, dry air and wind, and 0 at night in saturated calm air', () => {
    expect(dryingPotential(25, 30, 800, 15)).toEqual({ value: 1, complete: true });
    expect(dryingPotential(10, 100, 0, 0)).toEqual({ value: 0, complete: true });
  });

  it('uses the conservative form without solar and credits nothing for missing terms', () => {
    const withoutSolar = dryingPotential(25, 30, undefined, 15);
    expect(withoutSolar.value).toBeCloseTo(0.7, 10);
    expect(withoutSolar.complete).toBe(false);
    expect(dryingPotential(25, undefined, undefined, undefined).value).toBe(0);
    expect(dryingPotential(25, undefined, 600, undefined).value).toBeCloseTo(0.5, 10);
  });

  it('gives the humidity term full credit from 1.0 kPa VPD (D11)', () => {
    // 20 °C: es = 2.338 kPa; RH 57.2 % -> VPD 1.0 kPa; RH 78.6 % -> 0.5 kPa.
    expect(dryingPotential(20, 57.22, 0, 0).value).toBeCloseTo(0.3, 2);
    expect(dryingPotential(20, 78.61, 0, 0).value).toBeCloseTo(0.15, 2);
    expect(dryingPotential(20, 30, 0, 0).value).toBeCloseTo(0.3, 10);
  });
});

describe('beaufortForKmh', () => {
  it.each([
    [0, 0],
    [1, 0],
    [1.1, 1],
    [19, 3],
    [19.5, 4],
    [49, 6],
    [50, 7],
    [61, 7],
    [62, 8],
    [74, 8],
    [80, 9],
    [117, 11],
    [118, 12],
  ])('%d km/h is Bft %d', (windKmh, bft) => {
    expect(beaufortForKmh(windKmh)).toBe(bft);
  });
});
