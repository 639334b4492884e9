import { formatNumberDe } from './format.js';
import type { CalculationInput } from './fields.js';
import type { Season } from './types.js';
import { emphasis } from './reasonText.js';

/** Thawing topsoil at or below this temperature sits on frozen or cold subsoil and cannot drain. */
export const THAW_SOIL_MAX_C = 2;
/** Thawing soil without a moisture sensor: BLOCK (model 1.1, D10). */
export const THAW_CAP = 30;

/**
 * Snowmelt or thaw after sub-zero days: soil just above freezing, frost in the last 3 days, in
 * winter or spring, and no soil moisture reading to show otherwise. The meltwater cannot drain
 * through the still frozen or cold subsoil, so the topsoil is waterlogged (AMA cross-compliance: no
 * field traffic on frozen or waterlogged soil; Umweltbundesamt: wet soils should not be driven on).
 */
export function thawCap(values: CalculationInput, season: Season): { cap: number; reason: string } | null {
  const soilC = values.soil_temperature;
  if (values.soil_moisture !== undefined || soilC === undefined) return null;
  if (season !== 'winter' && season !== 'spring') return null;
  if (soilC <= 0 || soilC > THAW_SOIL_MAX_C) return null;
  if (values.min_temp_3d === undefined || values.min_temp_3d > 0) return null;
  return {
    cap: THAW_CAP,
    reason: `${emphasis('Tauwetter')} (Boden ${formatNumberDe(soilC)} °C nach Frost bis ${formatNumberDe(values.min_temp_3d)} °C) – Boden wassergesättigt, Gefahr von Fahrspuren.`,
  };
}
