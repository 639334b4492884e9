import { formatNumberDe } from './format.js';
import type { CalculationInput } from './fields.js';
import { droughtScore } from './soil.js';
import { HEAT_STRESS_FROM_C } from './turf.js';
import { emphasis } from './reasonText.js';

/** Shoot growth of cool-season turf stops at 32 °C soil temperature, 10 cm (NC State Turf Council). */
export const HOT_SOIL_FROM_C = 32;
/** Heat with drought (measured) or hot soil: BLOCK (model 1.1, D5). */
export const HEAT_STRESS_CAP = 30;

/**
 * The BLOCK cap for heat on a stressed lawn: air at or above the heat-stress edge and either a
 * measured soil moisture in the drought range or soil at the temperature where shoot growth stops.
 * Heat alone (an irrigated lawn) stays WARNING on the air curve. The dry-spell estimate without a
 * soil sensor is rated in ./drought.ts.
 */
export function heatStressCap(
  values: CalculationInput,
  fieldCapacity: number,
  tempC: number,
  heatFromC = HEAT_STRESS_FROM_C,
  hotSoilFromC = HOT_SOIL_FROM_C,
): { cap: number; reason: string } | null {
  if (tempC < heatFromC) return null;
  const t = (): string => formatNumberDe(tempC);
  if (values.soil_moisture !== undefined && droughtScore(values.soil_moisture, fieldCapacity) < 100) {
    return {
      cap: HEAT_STRESS_CAP,
      reason: `${emphasis(`Hitze ${t()} °C bei trockenem Boden`)} (Bodenfeuchte ${formatNumberDe(values.soil_moisture)} %) – nicht mähen, Trockenstress.`,
    };
  }
  if (values.soil_temperature !== undefined && values.soil_temperature >= hotSoilFromC) {
    return {
      cap: HEAT_STRESS_CAP,
      reason: `${emphasis(`Hitze ${t()} °C, Boden ${formatNumberDe(values.soil_temperature)} °C`)} – Sprosswachstum ruht, nicht mähen.`,
    };
  }
  return null;
}
