import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { LOAD_BEARING_DE, SOIL_TYPE_DE, droughtScore, fieldCapacityPct, relativeWetness, soilLoadForScore } from '../soil.js';
import { trafficClass, trafficScore } from '../softSoil.js';
import { thawCap } from '../thaw.js';
import { TURF_PROFILES } from '../turf.js';
import type { SkippedPart } from '../types.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';
import { emphasis } from '../reasonText.js';

/** Soil temperature (°C, 5–10 cm) -> score of a cool-season lawn, after the NC State Turf Council table. */
export const SOIL_TEMPERATURE_CURVE: Curve = TURF_PROFILES.cool_season.soilCurve;

function soilTemperatureReason(soilTempC: number): string {
  const t = formatNumberDe(soilTempC);
  if (soilTempC <= 0) return `${emphasis('Boden gefroren')} (${t} °C) – nicht befahren, die Grasnarbe wird beschädigt.`;
  if (soilTempC < 4.4) return `Bodentemperatur ${t} °C – Sprosswachstum ruht, der Rasen regeneriert nach dem Schnitt nicht.`;
  if (soilTempC < 10) return `Bodentemperatur ${t} °C – Wachstum langsam, Schnitt regeneriert verzögert.`;
  if (soilTempC > 29) return `Bodentemperatur ${t} °C – Hitzestress im Wurzelraum, Wachstum stockt.`;
  if (soilTempC > 22) return `Bodentemperatur ${t} °C – Wurzelwachstum lässt nach.`;
  return `Bodentemperatur ${t} °C – aktives Wurzel- und Sprosswachstum.`;
}

/** The soil moisture's sub-score (the lower of wetness and drought), its load class and bearing, and its reason. */
function moistureAssessment(
  soilMoisturePct: number,
  fieldCapacity: number,
  lawn: CheckContext['lawn'],
): {
  score: number;
  loadClass: string;
  loadBearing: string;
  wetness: number;
  reason: string;
} {
  const wet = trafficScore(soilMoisturePct, lawn);
  const dry = droughtScore(soilMoisturePct, fieldCapacity);
  const bearing = trafficClass(soilMoisturePct, lawn, wet);
  const vwc = formatNumberDe(soilMoisturePct);
  let reason: string;
  if (dry < wet) {
    reason = `${emphasis('Trockenstress')} (Bodenfeuchte ${vwc} %) – Rasen nicht zusätzlich belasten, Schnitthöhe erhöhen.`;
  } else if (wet < 80) {
    reason = `${emphasis(`Boden ${LOAD_BEARING_DE[bearing]}`)} (${vwc} % Bodenfeuchte, ${SOIL_TYPE_DE[lawn.soilType]}) – Gefahr von Bodenverdichtung und Fahrspuren.`;
  } else {
    reason = `Boden ${LOAD_BEARING_DE[bearing]} (${vwc} % Bodenfeuchte, ${SOIL_TYPE_DE[lawn.soilType]}).`;
  }
  return {
    score: Math.min(wet, dry),
    loadClass: soilLoadForScore(wet),
    loadBearing: bearing,
    wetness: relativeWetness(soilMoisturePct, fieldCapacity),
    reason,
  };
}

function evaluate({ values, season, lawn }: CheckContext): CheckEvaluation {
  const soilTempC = values.soil_temperature ?? Number.NaN;
  const soilMoisturePct = values.soil_moisture;
  const temperatureScore = piecewiseLinear(TURF_PROFILES[lawn.turfType].soilCurve, soilTempC);
  const reasons = [soilTemperatureReason(soilTempC)];
  const skippedParts: Record<string, SkippedPart> = {};
  const fieldCapacity = fieldCapacityPct(lawn);

  const moisture = soilMoisturePct === undefined ? null : moistureAssessment(soilMoisturePct, fieldCapacity, lawn);
  if (moisture === null) {
    skippedParts.load_bearing = { reason: 'No soil moisture; the load-bearing capacity cannot be assessed.', missing: ['soil_moisture'] };
  } else {
    reasons.push(moisture.reason);
  }
  const moistureScore = moisture?.score ?? null;
  let score = moistureScore === null ? temperatureScore : Math.min(temperatureScore, moistureScore);
  // The lower sub-score leads the reasons.
  if (moistureScore !== null && moistureScore < temperatureScore) reasons.reverse();
  const thaw = thawCap(values, season);
  if (thaw !== null && thaw.cap < score) {
    score = thaw.cap;
    reasons.unshift(thaw.reason);
  }

  return {
    score,
    dataConfidence: soilMoisturePct === undefined ? 'medium' : 'high',
    reasons,
    skippedParts,
    meta: {
      soil_temp: soilTempC,
      season,
      soil_moisture: soilMoisturePct ?? null,
      soil_moisture_load_class: moisture?.loadClass ?? null,
      soil_moisture_source: soilMoisturePct === undefined ? null : 'measured',
      load_bearing: moisture?.loadBearing ?? null,
      relative_wetness: moisture === null ? null : roundTo(moisture.wetness, 2),
      soil_temp_score: roundTo(temperatureScore, 1),
      moisture_score: moistureScore === null ? null : roundTo(moistureScore, 1),
      soil_type: lawn.soilType,
      field_capacity: fieldCapacity,
      field_capacity_source: lawn.fieldCapacityPercent === undefined ? 'soil_type' : 'lawn_setting',
      mower_class: lawn.mowerClass,
      turf_type: lawn.turfType,
      thaw: thaw !== null,
    },
  };
}

export const soiltempCheck: CheckDefinition = {
  name: 'soiltemp',
  weight: 0.2,
  requiredFields: ['soil_temperature'],
  skippedReason: 'Required field soil_temperature is missing or invalid.',
  evaluate,
};
