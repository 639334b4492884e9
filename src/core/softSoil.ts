/**
 * Soft soil above field capacity by the mower's weight (docs/model.md, "Soft soil above field capacity").
 * Pure.
 *
 * Ruts and compaction are a question of load per contact area: a robot mower (10–15 kg) < a walk-behind
 * (25–40 kg plus the operator's steps) < a ride-on (200+ kg). Soil a few points above field capacity
 * is soft: a light mower leaves at most faint marks, so it is WARNING; near saturation the soil has no
 * air-filled pores left to give and every wheel smears it (BLOCK). A ride-on mower is BLOCK as soon as
 * the soil is above field capacity (Kanton Luzern nomogram: heavier machines need drier soil).
 *
 * Below field capacity the 1.1 curve stands (./soil.ts). Above it the wetness is measured on the way
 * from field capacity (s = 0) to saturation (s = 1): s = (θ − θ_FC)/(θ_sat − θ_FC), with the
 * saturation of the soil type (Saxton & Rawls 2006, ./lawn/soilBucket.ts).
 */
import { SATURATION_PCT } from './lawn/soilBucket.js';
import { piecewiseLinear, type Curve } from './piecewise.js';
import { fieldCapacityPct, loadBearingClass, wetnessScore, type LoadBearing } from './soil.js';
import type { LawnProfile, MowerClass } from './types.js';

/** s → score above field capacity, by mower class; the curve starts at the 1.1 score at field capacity. */
export const SOFT_SOIL_CURVES: Readonly<Record<MowerClass, Curve>> = {
  robot: [
    [0.05, 69],
    [0.45, 50],
    [0.65, 40],
    [0.8, 25],
    [1, 10],
  ],
  walk: [
    [0.05, 65],
    [0.3, 50],
    [0.5, 40],
    [0.7, 25],
    [1, 10],
  ],
  ride_on: [
    [0.05, 39],
    [0.5, 20],
    [1, 5],
  ],
};

type Lawn = Pick<LawnProfile, 'soilType' | 'mowerClass' | 'fieldCapacityPercent'>;

/** θ_sat of the lawn's soil, %, never below θ_FC + 1 (a configured field capacity may be high). */
export function saturationPct(lawn: Lawn): number {
  return Math.max(SATURATION_PCT[lawn.soilType], fieldCapacityPct(lawn) + 1);
}

/** How far the soil is from field capacity towards saturation: 0 at or below field capacity, 1 saturated. */
export function saturationShare(soilMoisturePct: number, lawn: Lawn): number {
  const fc = fieldCapacityPct(lawn);
  if (soilMoisturePct <= fc) return 0;
  return Math.min(1, (soilMoisturePct - fc) / (saturationPct(lawn) - fc));
}

/** The load-bearing score of the soil for the lawn's mower (no drought term). */
export function trafficScore(soilMoisturePct: number, lawn: Lawn): number {
  const fc = fieldCapacityPct(lawn);
  const atOrBelow = wetnessScore(Math.min(soilMoisturePct, fc), fc, lawn.mowerClass);
  if (soilMoisturePct <= fc) return atOrBelow;
  return softSoilScore(SOFT_SOIL_CURVES[lawn.mowerClass], atOrBelow, saturationShare(soilMoisturePct, lawn));
}

/**
 * `piecewiseLinear([[0, atFieldCapacity], ...curve], s)` without building that curve per call: the
 * same arithmetic on the same numbers, so the same score to the last bit.
 */
function softSoilScore(curve: Curve, atFieldCapacity: number, s: number): number {
  if (Number.isNaN(s)) return Number.NaN;
  if (s <= 0) return atFieldCapacity;
  const first = curve[0];
  if (first === undefined || s > first[0]) return piecewiseLinear(curve, s);
  return atFieldCapacity + (s / first[0]) * (first[1] - atFieldCapacity);
}

/**
 * The load-bearing class the reasons name: the 1.1 classes below field capacity, by the score above it.
 * `score` is trafficScore() of the same moisture and lawn when the caller has it already.
 */
export function trafficClass(soilMoisturePct: number, lawn: Lawn, score?: number): LoadBearing {
  const fc = fieldCapacityPct(lawn);
  if (soilMoisturePct <= fc) return loadBearingClass(soilMoisturePct, fc, lawn.mowerClass);
  if (score === undefined) return trafficClass(soilMoisturePct, lawn, trafficScore(soilMoisturePct, lawn));
  if (score >= 40) return 'limited';
  return score >= 25 ? 'wet' : 'saturated';
}
