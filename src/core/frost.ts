import { formatNumberDe } from './format.js';
import { emphasis } from './reasonText.js';
import { GRASS_MINIMUM_DEPRESSION_K, HOARFROST_GRASS_C, airMinimumC, grassMinimumC, hoarfrostOnBlades } from './grassMinimum.js';

export const FROZEN_CAP = 5;
export const FROST_3H_COLD_CAP = 20;
/** Frost on the blades now (ground frost or hoarfrost not yet thawed): BLOCK (model 1.1, D6). */
export const GROUND_FROST_NOW_CAP = 30;
export const FROST_3H_THAWED_CAP = 60;
export const GROUND_FROST_CAP = 45;
export const FROST_3D_CAP = 80;
/** Ground frost (5 cm) is possible at 2 m air temperatures of +3 to +5 °C (DWD Wetterlexikon "Bodenfrost"). */
export const GROUND_FROST_AIR_C = GRASS_MINIMUM_DEPRESSION_K + HOARFROST_GRASS_C;
export const GROUND_FROST_AIR_MAX_C = 5;

export interface FrostCap {
  cap: number;
  reason: string;
}

/**
 * True when frost is likely on the blades now (model 1.2, ./grassMinimum.ts): the grass minimum, 3 K below
 * the 2 m air minimum of the last 3 hours, reached 0 °C, and neither warm air nor long enough sun has
 * thawed it.
 */
export function groundFrostNow(tempC: number, minTemp3hC: number | undefined, solarWm2: number | undefined): boolean {
  return hoarfrostOnBlades(tempC, minTemp3hC, solarWm2);
}

/** The frost caps of the temperature check (the lowest applies). */
export function frostCaps(tempC: number, minTemp3hC: number | undefined, minTemp3dC: number | undefined, solarWm2?: number): FrostCap[] {
  // The numbers are formatted only where a reason is written (no closures per call).
  const caps: FrostCap[] = [];
  if (tempC <= 0) {
    caps.push({
      cap: FROZEN_CAP,
      reason: `Lufttemperatur ${formatNumberDe(tempC)} °C – ${emphasis('Rasen gefroren')}: gefrorene Halme brechen – Tritt- und Fahrschäden.`,
    });
  }
  if (minTemp3hC !== undefined) {
    if (minTemp3hC <= 0 && tempC < 5) {
      caps.push({
        cap: FROST_3H_COLD_CAP,
        reason: `${emphasis('Frost in den letzten 3 Stunden')} (min. ${formatNumberDe(minTemp3hC)} °C): gefrorene Halme brechen – Tritt- und Fahrschäden.`,
      });
    } else if (minTemp3hC <= 0) {
      caps.push({
        cap: FROST_3H_THAWED_CAP,
        reason: `Frost in den letzten 3 Stunden (min. ${formatNumberDe(minTemp3hC)} °C) ist aufgetaut – Halme noch geschwächt und nass.`,
      });
    } else if (minTemp3hC <= GROUND_FROST_AIR_C && tempC < GROUND_FROST_AIR_MAX_C && !groundFrostNow(tempC, minTemp3hC, solarWm2)) {
      // Only while the frost-now cap below does not apply: one fact, one reason.
      caps.push({
        cap: GROUND_FROST_CAP,
        reason: `${emphasis('Bodenfrost möglich')} (Luft ${formatNumberDe(tempC)} °C) – Rasen erst nach dem Auftauen mähen.`,
      });
    }
  }
  if (tempC > 0 && groundFrostNow(tempC, minTemp3hC, solarWm2)) {
    const airMin = airMinimumC(tempC, minTemp3hC);
    caps.push({
      cap: GROUND_FROST_NOW_CAP,
      reason: `${emphasis('Reif oder Bodenfrost auf den Halmen')} (Luft min. ${formatNumberDe(airMin)} °C in 3 Stunden, am Boden etwa ${formatNumberDe(grassMinimumC(airMin))} °C; jetzt ${formatNumberDe(tempC)} °C) – erst nach dem Auftauen mähen.`,
    });
  }
  if (minTemp3dC !== undefined && minTemp3dC <= 0) {
    caps.push({
      cap: FROST_3D_CAP,
      reason: `Frost in den letzten 3 Tagen (min. ${formatNumberDe(minTemp3dC)} °C) – Grasnarbe kann geschwächt sein.`,
    });
  }
  return caps;
}
