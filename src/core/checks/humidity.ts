import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { dewPointMagnusC, dryingPotential } from '../physics.js';
import type { SkippedPart } from '../types.js';
import { DEW_FREE_WIND_FROM_KMH, windLiftK } from '../windDew.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';
import { emphasis } from '../reasonText.js';

/** Dew point depression, K -> score (docs/model.md, "Check: humidity"; CART 3.7 K, greenkeeper 1 K, HA Smart Mowing 2 K). */
export const DEW_POINT_DEPRESSION_CURVE: Curve = [
  [1, 15],
  [2, 35],
  [3, 55],
  [4, 75],
  [6, 90],
  [8, 100],
];
export const SUN_DRYING_BONUS = 10;
export const SUN_DRYING_MIN_SOLAR_WM2 = 300;
export const SUN_DRYING_MIN_DPD_K = 2;
/** CART (Kim et al. 2002): leaves are dry from this depression on. */
const DRY_FROM_DPD_K = 3.7;
/** HA Smart Mowing default spread: below 2 K dew is on the blades. */
const DEW_BELOW_DPD_K = 2;

type DewRisk = 'high' | 'medium' | 'low';

function dewRisk(dpdK: number, windKmh: number | undefined, solarWm2: number | undefined): DewRisk {
  const calm = windKmh === undefined || windKmh < DEW_FREE_WIND_FROM_KMH;
  const dark = solarWm2 === undefined || solarWm2 < 50;
  if (dpdK < 2 && calm && dark) return 'high';
  if (dpdK < DRY_FROM_DPD_K) return 'medium';
  return 'low';
}

function evaluate({ values, season, drying: given }: CheckContext): CheckEvaluation {
  const humidityPct = values.humidity ?? 0;
  const tempC = values.temperature ?? 15;
  const measuredDewPointC = values.dew_point;
  const dewPointC = measuredDewPointC ?? dewPointMagnusC(tempC, humidityPct);
  const dpdK = tempC - dewPointC;
  const solarWm2 = values.solar;
  const skippedParts: Record<string, SkippedPart> = {};

  const liftK = windLiftK(dpdK, values.wind_speed);
  let score = piecewiseLinear(DEW_POINT_DEPRESSION_CURVE, dpdK + liftK);
  const reasons: string[] = [];
  const d = formatNumberDe(Math.max(dpdK, 0));
  const rh = formatNumberDe(humidityPct, 0);
  // With wind the spread is rated as wider (D2); the text follows the rated spread, the number is the real one.
  const ratedK = dpdK + liftK;
  if (ratedK < DEW_BELOW_DPD_K) {
    reasons.push(`${emphasis(`Taupunktdifferenz nur ${d} K`)} (Luftfeuchte ${rh} %) – Taubildung, Halme sind nass.`);
  } else if (ratedK < DRY_FROM_DPD_K) {
    reasons.push(`${emphasis(`Taupunktdifferenz nur ${d} K`)} (Luftfeuchte ${rh} %) – Taubildung möglich, Halme trocknen langsam.`);
  } else {
    reasons.push(`Taupunktdifferenz ${d} K (Luftfeuchte ${rh} %) – keine Taubildung, Halme trocken.`);
  }
  if (liftK > 0) {
    reasons.push(`Wind (${formatNumberDe(values.wind_speed ?? 0, 0)} km/h) belüftet den Rasen – Tau bildet sich kaum, Halme trocknen ab.`);
  }
  let sunBonus = false;
  if (solarWm2 === undefined) {
    skippedParts.sun_drying = { reason: 'No solar irradiance; active drying by the sun cannot be credited.', missing: ['solar'] };
  } else if (dpdK > SUN_DRYING_MIN_DPD_K && solarWm2 >= SUN_DRYING_MIN_SOLAR_WM2) {
    sunBonus = true;
    score = Math.min(100, score + SUN_DRYING_BONUS);
    reasons.push(`Sonne (${formatNumberDe(solarWm2, 0)} W/m²) beschleunigt die Abtrocknung.`);
  }
  // The context's potential is the same call when humidity was given (it always is when this check runs).
  const drying =
    given !== undefined && values.humidity !== undefined ? given : dryingPotential(tempC, humidityPct, solarWm2, values.wind_speed);
  const refiningComplete = measuredDewPointC !== undefined && solarWm2 !== undefined && values.wind_speed !== undefined;

  return {
    score,
    dataConfidence: refiningComplete ? 'high' : 'medium',
    reasons,
    skippedParts,
    meta: {
      humidity: humidityPct,
      temperature: tempC,
      season,
      dew_point_depression: roundTo(dpdK, 2),
      drying_potential: roundTo(drying.value, 2),
      dew_point: roundTo(dewPointC, 2),
      dew_point_source: measuredDewPointC === undefined ? 'magnus' : 'measured',
      dew_risk: dewRisk(dpdK, values.wind_speed, solarWm2),
      sun_drying_bonus: sunBonus,
      wind_lift_k: roundTo(liftK, 2),
      drying_potential_complete: drying.complete,
    },
  };
}

export const humidityCheck: CheckDefinition = {
  name: 'humidity',
  weight: 0.2,
  requiredFields: ['humidity'],
  skippedReason: 'Required field humidity is missing or invalid.',
  evaluate,
};
