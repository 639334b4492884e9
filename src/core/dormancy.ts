/**
 * Winter dormancy from the lawn's state, not from the calendar (model 1.1, D4). Each number is
 * documented with its source in docs/model.md ("D4 Dormancy from the lawn's state").
 */
import { formatNumberDe } from './format.js';
import type { CalculationInput } from './fields.js';
import type { TurfType } from './types.js';
import { emphasis } from './reasonText.js';

/** Dormancy caps the temperature check at WARNING: mowing a dry, mild dormant lawn is acceptable. */
export const DORMANCY_CAP = 60;

/**
 * Soil temperature (4-inch depth) below which the turf is dormant (NC State University Turf Council,
 * "Soil Temperature Reports Aid Managers", 2005): cool-season shoot growth ceases at 40 °F (4.4 °C,
 * taken as 5 °C, where winter rest is usually placed); warm-season dormancy starts at 50 °F (10 °C;
 * also UC IPM "Seasonal growth of turfgrasses": dormant below 50–55 °F average air or soil temperature).
 */
export const DORMANT_SOIL_BELOW_C: Readonly<Record<TurfType, number>> = { cool_season: 5, warm_season: 10 };

/**
 * Without a soil temperature: air below this after frost in the last 3 days stands in for cold soil.
 * The soil threshold plus 5 K, because a single air reading by day is warmer than the daily mean the
 * topsoil follows (our choice; see docs/model.md).
 */
export const DORMANT_AIR_BELOW_C: Readonly<Record<TurfType, number>> = { cool_season: 10, warm_season: 15 };

export type DormancyEvidence = 'soil_temperature' | 'frost_and_cold_air';

export interface Dormancy {
  evidence: DormancyEvidence;
  cap: number;
  reason: string;
}

/** Frost in the last 3 hours or 3 days (the current reading belongs to both windows). */
function recentFrost(values: CalculationInput, tempC: number): boolean {
  return (
    tempC <= 0 ||
    (values.min_temp_3h !== undefined && values.min_temp_3h <= 0) ||
    (values.min_temp_3d !== undefined && values.min_temp_3d <= 0)
  );
}

/**
 * The dormancy cap, or null when the lawn is growing. A measured soil temperature decides alone;
 * without it, frost in the last 3 days together with cold air marks dormancy. The calendar season
 * plays no part: a mild 16 °C January day in Lisbon (soil 12–14 °C) is not dormant.
 */
export function dormancy(values: CalculationInput, turfType: TurfType): Dormancy | null {
  const tempC = values.temperature ?? Number.NaN;
  const soilC = values.soil_temperature;
  if (soilC !== undefined) {
    if (!(soilC < DORMANT_SOIL_BELOW_C[turfType])) return null;
    return {
      evidence: 'soil_temperature',
      cap: DORMANCY_CAP,
      reason: `${emphasis('Winterruhe')} (Boden ${formatNumberDe(soilC)} °C) – Rasen wächst kaum; nur bei trockenem, mildem Wetter mähen.`,
    };
  }
  if (!(tempC < DORMANT_AIR_BELOW_C[turfType]) || !recentFrost(values, tempC)) return null;
  return {
    evidence: 'frost_and_cold_air',
    cap: DORMANCY_CAP,
    reason: `${emphasis('Winterruhe')} (Frost in den letzten Tagen, Luft ${formatNumberDe(tempC)} °C) – Rasen wächst kaum; nur bei trockenem, mildem Wetter mähen.`,
  };
}
