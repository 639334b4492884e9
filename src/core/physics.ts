/** Meteorological formulas of the model (docs/model.md, which cites the sources). Pure; units are in the names. */

const MAGNUS_A = 17.62;
const MAGNUS_B_C = 243.12;
// RH 0 % has no dew point (ln 0); the formula is evaluated at this floor instead.
const MIN_HUMIDITY_PCT = 0.1;

/** Dew point by the Magnus formula (WMO form, a = 17.62, b = 243.12 °C). */
export function dewPointMagnusC(tempC: number, humidityPct: number): number {
  const rh = Math.max(humidityPct, MIN_HUMIDITY_PCT);
  const gamma = Math.log(rh / 100) + (MAGNUS_A * tempC) / (MAGNUS_B_C + tempC);
  return (MAGNUS_B_C * gamma) / (MAGNUS_A - gamma);
}

/** Saturation vapour pressure over water (Tetens form), kPa. */
export function saturationVapourPressureKpa(tempC: number): number {
  return 0.6108 * Math.exp((17.27 * tempC) / (tempC + 237.3));
}

/** Vapour pressure deficit, kPa. */
export function vapourPressureDeficitKpa(tempC: number, humidityPct: number): number {
  const rh = Math.min(100, Math.max(0, humidityPct));
  return saturationVapourPressureKpa(tempC) * (1 - rh / 100);
}

export interface DryingPotential {
  /** 0 (no drying) .. 1 (sun, dry air, wind). */
  value: number;
  /** False when a term was missing and replaced by its conservative value. */
  complete: boolean;
}

/**
 * VPD at which the humidity term of the drying potential is full (model 1.1, D11): 1.0 kPa, a
 * typical sunny-afternoon deficit in a temperate summer (1.5 kPa in 1.0 was rarely reached).
 */
export const FULL_DRYING_VPD_KPA = 1.0;

/**
 * Drying potential: 0.5·radiation + 0.3·VPD + 0.2·wind terms (informational since model 1.1).
 * Without solar the conservative 0.7·(0.6·VPD + 0.4·wind) is used; a missing
 * humidity or wind term counts as 0 (no drying credited for unknown data).
 */
export function dryingPotential(tempC: number, humidityPct?: number, solarWm2?: number, windKmh?: number): DryingPotential {
  const vpdTerm = humidityPct === undefined ? 0 : Math.min(vapourPressureDeficitKpa(tempC, humidityPct) / FULL_DRYING_VPD_KPA, 1);
  const windTerm = windKmh === undefined ? 0 : Math.min(windKmh / 3.6 / 4, 1);
  const complete = humidityPct !== undefined && solarWm2 !== undefined && windKmh !== undefined;
  if (solarWm2 === undefined) {
    return { value: 0.7 * (0.6 * vpdTerm + 0.4 * windTerm), complete };
  }
  const radiationTerm = Math.min(solarWm2 / 600, 1);
  return { value: 0.5 * radiationTerm + 0.3 * vpdTerm + 0.2 * windTerm, complete };
}

/** Beaufort number for a wind speed in km/h (upper bounds of Bft 0..11). */
const BEAUFORT_UPPER_KMH = [1, 5, 11, 19, 28, 38, 49, 61, 74, 88, 102, 117];
export function beaufortForKmh(windKmh: number): number {
  for (let index = 0; index < BEAUFORT_UPPER_KMH.length; index++) {
    if (windKmh <= (BEAUFORT_UPPER_KMH[index] as number)) return index;
  }
  return 12;
}
