/**
 * Root-zone soil water as a bucket (FAO-56 ch. 8, single crop coefficient with water stress), for lawns
 * without a soil-moisture sensor. Pure. θ is the volumetric water content of the root zone, %.
 *
 * In: rain (all of it; runoff only above saturation). Out: Kc·Ks·ET0 (eqs. 56, 84) and drainage of the
 * water above field capacity with a soil-specific time constant. θ never exceeds saturation and never
 * drops below the wilting point (Ks reaches 0 there).
 */
import { FIELD_CAPACITY_PCT } from '../soil.js';
import type { SoilType, TurfType } from '../types.js';

/**
 * Wilting point (θ at −1500 kPa) and saturation, %, by soil type: Saxton & Rawls (2006, SSSAJ 70:1569,
 * Table 3 texture classes at 2.5 % organic matter) for loamy sand, loam and silty clay loam, rounded —
 * the same textures as the field capacities of model D9 (FIELD_CAPACITY_PCT).
 */
export const WILTING_POINT_PCT: Readonly<Record<SoilType, number>> = { sand: 5, loam: 12, clay: 22 };
export const SATURATION_PCT: Readonly<Record<SoilType, number>> = { sand: 46, loam: 46, clay: 51 };
/**
 * Time constant of drainage above field capacity, hours. FAO-56 (ch. 8) takes the root zone back to field
 * capacity within 2–3 days after heavy rain; sand drains far faster, clay slower (saturated conductivity
 * falls by two orders of magnitude from sand to clay, Saxton & Rawls 2006).
 */
export const DRAINAGE_TAU_H: Readonly<Record<SoilType, number>> = { sand: 12, loam: 24, clay: 72 };
/** Root depth, m: the lower end of FAO-56 Table 22 for turf grass (0.5–1.0 m); mown lawns root shallow. */
export const ROOT_DEPTH_M = 0.5;
/** FAO-56 Table 12, turf grass Kc mid (cool season 0.95, warm season 0.85). */
export const TURF_KC: Readonly<Record<TurfType, number>> = { cool_season: 0.95, warm_season: 0.85 };
/** FAO-56 Table 22, depletion fraction p before stress (cool season 0.40, warm season 0.50). */
export const TURF_P: Readonly<Record<TurfType, number>> = { cool_season: 0.4, warm_season: 0.5 };

export interface SoilProfile {
  wiltingPct: number;
  fieldCapacityPct: number;
  saturationPct: number;
  drainageTauH: number;
  kc: number;
  p: number;
}

/** The bucket of a lawn; a configured field capacity replaces the soil type's (kept between WP and saturation). */
export function soilProfile(soilType: SoilType, turfType: TurfType, fieldCapacityPercent?: number): SoilProfile {
  const wiltingPct = WILTING_POINT_PCT[soilType];
  const saturationPct = SATURATION_PCT[soilType];
  const fc = fieldCapacityPercent ?? FIELD_CAPACITY_PCT[soilType];
  return {
    wiltingPct: Math.min(wiltingPct, fc - 1),
    fieldCapacityPct: Math.min(fc, saturationPct - 1),
    saturationPct,
    drainageTauH: DRAINAGE_TAU_H[soilType],
    kc: TURF_KC[turfType],
    p: TURF_P[turfType],
  };
}

/** Water stress coefficient Ks (FAO-56 eq. 84). */
export function waterStress(thetaPct: number, profile: SoilProfile): number {
  const taw = profile.fieldCapacityPct - profile.wiltingPct;
  const depletion = Math.max(0, profile.fieldCapacityPct - thetaPct);
  const raw = profile.p * taw;
  if (depletion <= raw) return 1;
  return Math.max(0, (taw - depletion) / ((1 - profile.p) * taw));
}

/** θ after a step of `hours` with `rainMm` and reference ET `et0MmH` (undefined: no ET known). */
export function stepSoil(thetaPct: number, profile: SoilProfile, rainMm: number, et0MmH: number | undefined, hours: number): number {
  const mmPerPct = ROOT_DEPTH_M * 10; // 1 % of a 0.5 m root zone holds 5 mm
  let theta = Math.min(profile.saturationPct, thetaPct + Math.max(0, rainMm) / mmPerPct);
  if (et0MmH !== undefined && hours > 0) {
    theta -= (profile.kc * waterStress(theta, profile) * et0MmH * hours) / mmPerPct;
  }
  if (theta > profile.fieldCapacityPct && hours > 0) {
    theta = profile.fieldCapacityPct + (theta - profile.fieldCapacityPct) * Math.exp(-hours / profile.drainageTauH);
  }
  return Math.min(profile.saturationPct, Math.max(profile.wiltingPct, theta));
}

/** Readily available water used up: the lawn is under drought stress (FAO-56: depletion beyond RAW). */
export function isSoilDrought(thetaPct: number, profile: SoilProfile): boolean {
  return waterStress(thetaPct, profile) < 1;
}

/** Above field capacity: the soil is still draining, soft under wheels. */
export function isSoilSoft(thetaPct: number, profile: SoilProfile): boolean {
  return thetaPct > profile.fieldCapacityPct + 0.5;
}
