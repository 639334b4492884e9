import { formatNumberDe } from './format.js';
import { effectiveRainWindows } from './rainWindows.js';
import type { CalculationInput } from './fields.js';
import { HEAT_STRESS_FROM_C } from './turf.js';
import type { SoilEstimate } from './soilEstimate.js';
import type { Season } from './types.js';
import { emphasis } from './reasonText.js';

/**
 * Below this 14-day rain sum a lawn without a soil sensor is taken to be in a dry spell: less than a
 * tenth of the ~25 mm a week a cool-season lawn uses in summer (K-State Turfgrass "watering lawns"),
 * i.e. about the 10 rain-free days HA Smart Mowing treats as drought.
 */
export const DRY_SPELL_RAIN_14D_MM = 5;
/** A dry spell alone: WARNING (drought-stressed turf should not be mown; K-State). */
export const DRY_SPELL_CAP = 60;
/** A dry spell with heat on top: BLOCK (wound stress plus water loss). */
export const DRY_SPELL_HEAT_CAP = 30;

export interface DroughtCap {
  cap: number;
  reason: string;
}

/** 14-day rain sum as the model uses it: never below the rain of the last 24 hours. */
function rain14dMm(values: CalculationInput): number | undefined {
  if (values.rain_14d === undefined) return undefined;
  return Math.max(values.rain_14d, effectiveRainWindows(values)?.rain24hMm ?? 0);
}

/**
 * True when a lawn without a soil sensor is in a dry spell during the growing season. A measured
 * soil_moisture replaces this estimate (the soiltemp check rates drought from it). Based on the rain
 * sum, not on minutes_since_rain, so that more time since rain never lowers a score. With the lawn
 * memory's estimated soil moisture it is the bucket's drought signal instead (docs/model.md, "Lawn memory").
 */
export function isDrySpell(values: CalculationInput, season: Season, estimate?: SoilEstimate): boolean {
  if (values.soil_moisture !== undefined || season === 'winter') return false;
  // The lawn memory's water balance knows ET as well as rain: it replaces the rain-sum rule.
  if (estimate !== undefined) return estimate.drought;
  const sum = rain14dMm(values);
  return sum !== undefined && sum < DRY_SPELL_RAIN_14D_MM;
}

/** The cap a dry spell puts on the temperature check (null when there is none). */
export function droughtCap(
  values: CalculationInput,
  season: Season,
  tempC: number,
  heatFromC = HEAT_STRESS_FROM_C,
  estimate?: SoilEstimate,
): DroughtCap | null {
  if (!isDrySpell(values, season, estimate)) return null;
  const evidence =
    estimate === undefined
      ? `${formatNumberDe(rain14dMm(values) ?? 0)} mm Regen in 14 Tagen`
      : `geschätzte Bodenfeuchte ${formatNumberDe(estimate.pct)} % nach Wasserbilanz`;
  if (tempC >= heatFromC) {
    return {
      cap: DRY_SPELL_HEAT_CAP,
      reason: `${emphasis('Trockenstress und Hitze')} (${evidence}, ${formatNumberDe(tempC)} °C) – nicht mähen, die Grasnarbe wird geschädigt.`,
    };
  }
  return {
    cap: DRY_SPELL_CAP,
    reason: `${emphasis('Trockenphase')} (${evidence}) – Trockenstress, Rasen nicht zusätzlich belasten, Schnitthöhe erhöhen.`,
  };
}
