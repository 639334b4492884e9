import { clamp } from './piecewise.js';

/** No dew forms above ~11 km/h (7 mph) wind (Iowa State University, Agron 541 leaf wetness notes). */
export const DEW_FREE_WIND_FROM_KMH = 11;
/**
 * Full ventilation from 20 km/h at 10 m: about the 2.5 m/s canopy wind of the CART leaf-wetness
 * model's dry branch (Kim, Taylor, Gleason & Koehler 2002, Plant Dis. 86:179), with the canopy wind
 * roughly half the 10 m wind over short grass (logarithmic wind profile).
 */
export const FULL_VENTILATION_KMH = 20;
/** At full ventilation the humidity check rates the spread as 2 K wider (1.5 K at 20 km/h scores like 3.5 K). */
export const MAX_WIND_LIFT_K = 2;
/** Below a 1 K spread it is fog or dew already on the blades (greenkeeper rule): wind does not help. */
export const WIND_LIFT_FROM_DPD_K = 1;

/** Extra dew-point spread credited for wind (model 1.1, D2); 0 when calm, missing or the spread is tiny. */
export function windLiftK(dewPointDepressionK: number, windKmh: number | undefined): number {
  if (windKmh === undefined || dewPointDepressionK < WIND_LIFT_FROM_DPD_K) return 0;
  return MAX_WIND_LIFT_K * clamp((windKmh - DEW_FREE_WIND_FROM_KMH) / (FULL_VENTILATION_KMH - DEW_FREE_WIND_FROM_KMH), 0, 1);
}
