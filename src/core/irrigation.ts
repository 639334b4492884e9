import { formatNumberDe } from './format.js';
import { piecewiseLinear } from './piecewise.js';
import type { Curve } from './piecewise.js';
import { emphasis } from './reasonText.js';

/**
 * Input fields beyond the interface spec (documented extensions, model 1.1). They are parsed and
 * range-checked like the spec's fields but never appear in available_fields or missing_fields, so
 * the spec's response stays exactly as it is.
 */
export const EXTENSION_FIELD_SPECS = [
  { name: 'minutes_since_irrigation', unit: 'min', min: 0, max: 99999 },
  // Lawn memory (docs/model.md, "Lawn memory"): derived by the MQTT side, accepted from any caller.
  { name: 'blade_drying_minutes', unit: 'min', min: 0, max: 99999 },
  { name: 'mow_need', unit: '%', min: 0, max: 100 },
  { name: 'wet_spell_hours', unit: 'h', min: 0, max: 9999 },
] as const;
export type ExtensionFieldName = (typeof EXTENSION_FIELD_SPECS)[number]['name'];
export type ExtensionInput = Partial<Record<ExtensionFieldName, number>>;

/** HA Smart Mowing locks mowing out for 3 h after irrigation (jumlu/ha-smart-mowing, const.py). */
export const IRRIGATION_DRYING_MIN = 180;
/** Minutes since irrigation / drying time -> score; the blade-wetness curve of the rain check. */
const IRRIGATION_CURVE: Curve = [[0, 15], [0.25, 20], [0.5, 40], [1, 70], [1.5, 90], [2, 100]];

/** Blade wetness after a sprinkler run, rated like recent light rain; null without the field. */
export function irrigationWetness(extensions: ExtensionInput): { score: number; reason: string | null } | null {
  const minutes = extensions.minutes_since_irrigation;
  if (minutes === undefined) return null;
  const score = piecewiseLinear(IRRIGATION_CURVE, minutes / IRRIGATION_DRYING_MIN);
  return {
    score,
    reason: score < 70
      ? `Bewässerung vor ${formatNumberDe(minutes, 0)} Minuten – ${emphasis('Rasen noch nass')}, Abtrocknung dauert ca. ${formatNumberDe(IRRIGATION_DRYING_MIN / 60, 1)} Stunden.`
      : null,
  };
}
