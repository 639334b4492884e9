import { piecewiseLinear, shiftCurveX } from './piecewise.js';
import type { Curve } from './piecewise.js';
import type { LawnProfile, MowerClass, SoilType } from './types.js';

/**
 * Default volumetric water content at field capacity (−33 kPa), %, by soil type (model 1.1, D9): the
 * Saxton & Rawls (2006, SSSAJ 70:1569) θ33 of loamy sand, loam and silty clay loam at 2.5 % organic
 * matter. Carsel & Parrish (1988) give much less (loam 16.4 %); docs/model.md compares both.
 * `lawn.fieldCapacityPercent` replaces the default for a calibrated sensor.
 */
export const FIELD_CAPACITY_PCT: Readonly<Record<SoilType, number>> = { sand: 12, loam: 28, clay: 38 };
/** Valid range of `lawn.fieldCapacityPercent` (coarse sand ~5 %, heavy clay or peat topsoil ~60 %). */
export const FIELD_CAPACITY_RANGE_PCT = { min: 5, max: 60 } as const;

export function isValidFieldCapacity(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= FIELD_CAPACITY_RANGE_PCT.min && value <= FIELD_CAPACITY_RANGE_PCT.max
  );
}

/** The lawn's field capacity, %: its own setting, else the soil type's default. */
export function fieldCapacityPct(lawn: Pick<LawnProfile, 'soilType' | 'fieldCapacityPercent'>): number {
  return lawn.fieldCapacityPercent ?? FIELD_CAPACITY_PCT[lawn.soilType];
}

/**
 * Residual moisture after ≥ 5 mm rain (model 1.1, D3): minutes after the rain during which thatch and
 * topsoil stay wet (hold) and by which they have drained (clear). Sand drains in 2–3 h, loam in 4–5 h,
 * clay in 6–9 h (saturated hydraulic conductivity sand ≫ loam ≫ clay; Saxton & Rawls 2006, SSSAJ 70:1569).
 */
export const RESIDUAL_MIN: Readonly<Record<SoilType, { hold: number; clear: number }>> = {
  sand: { hold: 120, clear: 180 },
  loam: { hold: 240, clear: 300 },
  clay: { hold: 360, clear: 540 },
};

/** Heavier machines and smaller contact areas need drier soil (Kanton Luzern nomogram). */
export const MOWER_SHIFT: Readonly<Record<MowerClass, number>> = { robot: 0.05, walk: 0, ride_on: -0.1 };

/** w = θ/θ_FC -> load-bearing score (walk-behind mower); docs/model.md, "Check: soiltemp". */
export const WETNESS_CURVE: Curve = [
  [0.85, 100],
  [1.0, 80],
  [1.1, 50],
  [1.2, 25],
  [1.3, 10],
];
/** WETNESS_CURVE shifted for each mower class, built once. */
const WETNESS_CURVES: Readonly<Record<MowerClass, Curve>> = {
  robot: shiftCurveX(WETNESS_CURVE, MOWER_SHIFT.robot),
  walk: shiftCurveX(WETNESS_CURVE, MOWER_SHIFT.walk),
  ride_on: shiftCurveX(WETNESS_CURVE, MOWER_SHIFT.ride_on),
};
/** Drought stress; never a BLOCK on its own (minimum 45). */
export const DROUGHT_CURVE: Curve = [
  [0.35, 45],
  [0.5, 100],
];

export type LoadBearing = 'firm' | 'moist' | 'limited' | 'wet' | 'saturated';
export type SoilLoad = 'low' | 'moderate' | 'high' | 'very_high' | 'saturated';

export const LOAD_BEARING_DE: Readonly<Record<LoadBearing, string>> = {
  firm: 'tragfähig',
  moist: 'feucht, tragfähig',
  limited: 'sehr feucht, eingeschränkt befahrbar',
  wet: 'nass',
  saturated: 'wassergesättigt',
};

export const SOIL_TYPE_DE: Readonly<Record<SoilType, string>> = { sand: 'Sandboden', loam: 'Lehmboden', clay: 'Tonboden' };

/** w = θ/θ_FC, with θ_FC from fieldCapacityPct(). */
export function relativeWetness(soilMoisturePct: number, fieldCapacity: number): number {
  return soilMoisturePct / fieldCapacity;
}

/** Load-bearing score from wetness only (no drought term), mower-class shifted. */
export function wetnessScore(soilMoisturePct: number, fieldCapacity: number, mowerClass: MowerClass): number {
  return piecewiseLinear(WETNESS_CURVES[mowerClass], relativeWetness(soilMoisturePct, fieldCapacity));
}

export function droughtScore(soilMoisturePct: number, fieldCapacity: number): number {
  return piecewiseLinear(DROUGHT_CURVE, relativeWetness(soilMoisturePct, fieldCapacity));
}

export function loadBearingClass(soilMoisturePct: number, fieldCapacity: number, mowerClass: MowerClass): LoadBearing {
  const w = relativeWetness(soilMoisturePct, fieldCapacity) - MOWER_SHIFT[mowerClass];
  if (w <= 0.85) return 'firm';
  if (w <= 1.0) return 'moist';
  if (w <= 1.1) return 'limited';
  if (w <= 1.2) return 'wet';
  return 'saturated';
}

/** Soil load class from a load-bearing (wetness) score; docs/model.md, "Check: rain". */
export function soilLoadForScore(score: number): SoilLoad {
  if (score >= 90) return 'low';
  if (score >= 70) return 'moderate';
  if (score >= 40) return 'high';
  if (score >= 20) return 'very_high';
  return 'saturated';
}
