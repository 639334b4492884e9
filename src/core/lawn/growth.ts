/**
 * Growth since the last cut from growing degree-days (base 5 °C), pure. Mow need follows the one-third
 * rule: never remove more than a third of the blade in one cut (Kansas State University Research and
 * Extension, "Mowing your lawn"; Penn State Extension "Lawn mowing"), so a lawn kept at h is due when
 * it has grown h/2 (to 1.5 h: cutting back to h removes one third).
 */
/** Base temperature of cool-season turf growth, °C (growth of temperate grasses starts at about 5 °C). */
export const GDD_BASE_C = 5;
/** Blade growth per degree-day above the base, cm, for an average fertilised cool-season lawn. */
export const GROWTH_CM_PER_GDD = 0.04;

/** Degree-days of a step of `hours` at `temperatureC`. */
export function degreeDays(temperatureC: number, hours: number): number {
  return (Math.max(0, temperatureC - GDD_BASE_C) * Math.max(0, hours)) / 24;
}

/** Grass grown since the cut, cm; `growthFactor` is the lawn's own (1: average). */
export function growthCm(gddSinceCut: number, growthFactor: number): number {
  return gddSinceCut * GROWTH_CM_PER_GDD * growthFactor;
}

/** 0–100: growth as a share of what the one-third rule allows at cut height `cutHeightCm`. */
export function mowNeed(gddSinceCut: number, growthFactor: number, cutHeightCm: number): number {
  const allowed = cutHeightCm / 2;
  return Math.min(100, Math.max(0, Math.round((100 * growthCm(gddSinceCut, growthFactor)) / allowed)));
}
