import { formatNumberDe } from './format.js';
import { emphasis } from './reasonText.js';
import type { CalculationInput } from './fields.js';
import {
  GRASS_MINIMUM_DEPRESSION_K,
  HOARFROST_GRASS_C,
  airMinimumC,
  frostThawed,
  grassMinimumC,
  hoarfrostOnBlades,
} from './grassMinimum.js';
import { localDateTime } from './season.js';

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

/** Until this local hour a frost of the night still counts as on the blades unless it has thawed (model 1.3). */
export const NIGHT_FROST_UNTIL_HOUR = 12;

/**
 * True when grass frost of the last night is likely still on the blades (model 1.3, docs/model.md "Grass
 * frost from the night"): in the morning (local hour before NIGHT_FROST_UNTIL_HOUR), a 3-day air minimum
 * of +3 °C or less put the grass minimum at or below 0 °C, and neither warm air (8 °C) nor long enough sun
 * has thawed it since. The 3-hour rule above misses a minimum more than 3 hours ago (+1 °C at 05:00,
 * 6 °C at 09:00); the interface carries no night minimum, so the 3-day minimum stands in for it.
 */
export function nightFrostOnBlades(
  tempC: number,
  minTemp3dC: number | undefined,
  solarWm2: number | undefined,
  localHour: number | undefined,
): boolean {
  if (minTemp3dC === undefined || localHour === undefined || localHour >= NIGHT_FROST_UNTIL_HOUR || tempC <= 0) return false;
  return grassMinimumC(minTemp3dC) <= HOARFROST_GRASS_C && !frostThawed(tempC, Math.min(minTemp3dC, tempC), solarWm2);
}

/**
 * Frost on the blades at `ms` for a forecast hour's or a reading's values: the temperature check's
 * BLOCK caps (frozen, frost in the last 3 hours while cold, frost now, frost of the night). The planner
 * (./plan/steps.ts) never plans a slot where this holds.
 */
export function frostOnBladesAt(values: CalculationInput, ms: number, timeZone: string): boolean {
  const tempC = values.temperature;
  if (tempC === undefined) return false;
  const min3h = values.min_temp_3h;
  if (tempC <= 0 || (min3h !== undefined && min3h <= 0 && tempC < 5)) return true;
  if (groundFrostNow(tempC, min3h, values.solar)) return true;
  return nightFrostOnBlades(tempC, values.min_temp_3d, values.solar, localDateTime(ms, timeZone).hour);
}

/** The frost caps of the temperature check (the lowest applies); `localHour` enables the night-frost rule. */
export function frostCaps(
  tempC: number,
  minTemp3hC: number | undefined,
  minTemp3dC: number | undefined,
  solarWm2?: number,
  localHour?: number,
): FrostCap[] {
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
    } else if (
      minTemp3hC <= GROUND_FROST_AIR_C &&
      tempC < GROUND_FROST_AIR_MAX_C &&
      !groundFrostNow(tempC, minTemp3hC, solarWm2) &&
      !nightFrostOnBlades(tempC, minTemp3dC, solarWm2, localHour)
    ) {
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
  if (tempC > 0 && !groundFrostNow(tempC, minTemp3hC, solarWm2) && nightFrostOnBlades(tempC, minTemp3dC, solarWm2, localHour)) {
    const airMin = minTemp3dC ?? tempC;
    caps.push({
      cap: GROUND_FROST_NOW_CAP,
      reason: `${emphasis('Reif von der Nacht auf den Halmen')} (Luft min. ${formatNumberDe(airMin)} °C, am Boden etwa ${formatNumberDe(grassMinimumC(airMin))} °C; jetzt ${formatNumberDe(tempC)} °C) – erst nach dem Auftauen mähen.`,
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
