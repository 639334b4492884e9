import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear, scaleCurveX } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { antecedentPrecipitationMm } from '../antecedent.js';
import { agoDe } from '../duration.js';
import { dryingPotential } from '../physics.js';
import { effectiveRainWindows, weightedCumulativeMm } from '../rainWindows.js';
import type { EffectiveRainWindows } from '../rainWindows.js';
import { LOAD_BEARING_DE, SOIL_TYPE_DE, soilLoadForScore } from '../soil.js';
import { trafficClass, trafficScore } from '../softSoil.js';
import { SOIL_ESTIMATE_SOURCE, estimatedSoilLoad } from '../soilEstimate.js';
import { residualReason, residualScore } from './rainResidual.js';
import { surfaceWetness, type SurfaceWetness } from './surfaceWetness.js';
import type { SkippedPart, SoilType } from '../types.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';
import { emphasis } from '../reasonText.js';

export const DRIZZLE_BELOW_MM_H = 0.2;
export const HEAVY_FROM_MM_H = 2;
/** Score of the precipitation sub-model for a current rate, mm/h (docs/model.md, "Check: rain"). */
export function precipitationScore(rateMmH: number): number {
  if (rateMmH <= 0) return 100;
  if (rateMmH < DRIZZLE_BELOW_MM_H) return 30;
  if (rateMmH < HEAVY_FROM_MM_H) return 10;
  return 0;
}

/** Weighted cumulative rain, mm -> score (docs/model.md, "Check: rain"). */
export const CUMULATIVE_CURVE: Curve = [
  [2, 100],
  [5, 85],
  [10, 65],
  [20, 40],
  [30, 20],
  [40, 10],
];
/** Antecedent precipitation index, mm -> score for loam (docs/model.md, "Check: rain"). */
export const API_CURVE_LOAM: Curve = [
  [10, 100],
  [20, 80],
  [35, 50],
  [50, 25],
  [65, 10],
];
export const API_SOIL_FACTOR: Readonly<Record<SoilType, number>> = { sand: 1.5, loam: 1, clay: 0.8 };
/** The API curve of each soil type (loam's scaled by the soil factor), built once. */
const API_CURVES: Readonly<Record<SoilType, Curve>> = {
  sand: scaleCurveX(API_CURVE_LOAM, API_SOIL_FACTOR.sand),
  loam: scaleCurveX(API_CURVE_LOAM, API_SOIL_FACTOR.loam),
  clay: scaleCurveX(API_CURVE_LOAM, API_SOIL_FACTOR.clay),
};

/** Used when minutes_since_rain must be estimated and no rain is on record. */
const NO_RECENT_RAIN_MIN = 1440;

type SubModel = 'precipitation' | 'surface_wetness' | 'residual' | 'cumulative' | 'soil';
/** Tie order of limiting_factor (docs/model.md, "Check: rain"). */
const SUB_MODEL_ORDER: readonly SubModel[] = ['precipitation', 'surface_wetness', 'residual', 'cumulative', 'soil'];

interface SubResult {
  score: number;
  reason: string | null;
}

interface MinutesSinceRain {
  minutes: number;
  source: 'measured' | 'estimated';
}

/** Missing minutes_since_rain: docs/model.md, "Estimators"; null when nothing supports an estimate. */
function minutesSinceRain(rateMmH: number, values: CheckContext['values']): MinutesSinceRain | null {
  if (values.minutes_since_rain !== undefined) return { minutes: values.minutes_since_rain, source: 'measured' };
  if (rateMmH > 0) return { minutes: 0, source: 'estimated' };
  const { rain_1h: r1, rain_12h: r12, rain_24h: r24 } = values;
  if (r1 === undefined && r12 === undefined && r24 === undefined) return null;
  if (r1 !== undefined && r1 > 0) return { minutes: 30, source: 'estimated' };
  if (r12 !== undefined && r12 > 0) return { minutes: 360, source: 'estimated' };
  if (r24 !== undefined && r24 > 0) return { minutes: 720, source: 'estimated' };
  return { minutes: NO_RECENT_RAIN_MIN, source: 'estimated' };
}

/** What the sub-models found: their results, the parts they could not assess, and the models run (in run order). */
interface RainFindings {
  subs: Partial<Record<SubModel, SubResult>>;
  skippedParts: Record<string, SkippedPart>;
  modelsExecuted: string[];
}

/** Wet blades: the water on them and how long it takes to dry at the weather of now (./surfaceWetness.ts). */
function surfaceWetnessSub(
  found: RainFindings,
  values: CheckContext['values'],
  since: MinutesSinceRain | null,
  extensions: NonNullable<CheckContext['extensions']>,
): SurfaceWetness | null {
  if (since === null) {
    found.skippedParts.dry_down = {
      reason: 'No minutes_since_rain and no rain window; the drying of the blades cannot be assessed.',
      missing: ['minutes_since_rain', 'rain_1h', 'rain_12h', 'rain_24h'],
    };
  } else {
    found.modelsExecuted.push('dry_down');
  }
  const wetness = surfaceWetness(values, since?.minutes ?? null, extensions);
  if (wetness !== null) found.subs.surface_wetness = { score: wetness.score, reason: wetness.reason };
  return wetness;
}

/** Much rain in the last 24 hours soaks surface and thatch. Returns the weighted cumulative rain. */
function cumulativeSub(found: RainFindings, windows: EffectiveRainWindows | null): number | null {
  if (windows === null) {
    found.skippedParts.rain_cumulative = {
      reason: 'No rain window (rain_1h, rain_12h, rain_24h) supplied.',
      missing: ['rain_1h', 'rain_12h', 'rain_24h'],
    };
    return null;
  }
  const cumulativeMm = weightedCumulativeMm(windows);
  const score = piecewiseLinear(CUMULATIVE_CURVE, cumulativeMm);
  found.subs.cumulative = {
    score,
    reason:
      score < 70
        ? `Viel Regen in den letzten 24 Stunden (${formatNumberDe(cumulativeMm)} mm gewichtet) – Oberfläche und Rasenfilz durchnässt.`
        : null,
  };
  return cumulativeMm;
}

/** Residual moisture after heavy rain, unless a measured soil moisture replaces the estimate. */
function residualSub(
  found: RainFindings,
  values: CheckContext['values'],
  windows: EffectiveRainWindows | null,
  since: MinutesSinceRain | null,
  soilType: SoilType,
): void {
  if (values.soil_moisture !== undefined) {
    // A measured soil moisture replaces the residual estimate (D3): the soil sub-model rates it.
  } else if (windows === null || since === null) {
    found.skippedParts.residual_moisture = {
      reason: 'No rain window supplied; residual moisture after heavy rain cannot be assessed.',
      missing: ['rain_12h', 'rain_24h'],
    };
  } else {
    found.modelsExecuted.push('residual_moisture');
    const score = residualScore(windows, since.minutes, soilType);
    found.subs.residual = {
      score,
      reason: score < 100 ? residualReason(windows) : null,
    };
  }
}

/**
 * The soil's load bearing: measured soil moisture, else the lawn memory's water balance (MQTT side only),
 * else the antecedent precipitation index. Returns the source used.
 */
function soilSub(
  found: RainFindings,
  values: CheckContext['values'],
  apiMm: number | null,
  { lawn, soilEstimate }: Pick<CheckContext, 'lawn' | 'soilEstimate'>,
): string | null {
  const { subs, modelsExecuted } = found;
  if (values.soil_moisture !== undefined) {
    modelsExecuted.push('sml');
    const score = trafficScore(values.soil_moisture, lawn);
    // One fact, one reason: with a soil temperature the soiltemp check names the wet soil (model 1.2).
    subs.soil = {
      score,
      reason:
        score < 70 && values.soil_temperature === undefined
          ? `${emphasis(`Boden ${LOAD_BEARING_DE[trafficClass(values.soil_moisture, lawn, score)]}`)} (${formatNumberDe(values.soil_moisture)} % Bodenfeuchte, ${SOIL_TYPE_DE[lawn.soilType]}) – Gefahr von Bodenverdichtung und Fahrspuren.`
          : null,
    };
    return 'soil_moisture';
  }
  if (soilEstimate !== undefined) {
    // The lawn memory's water balance replaces the rain-sum estimate; the surface keeps the residual rule.
    modelsExecuted.push('sml');
    subs.soil = estimatedSoilLoad(soilEstimate, lawn);
    return SOIL_ESTIMATE_SOURCE;
  }
  if (apiMm !== null && values.rain_14d !== undefined) {
    modelsExecuted.push('sml');
    const score = piecewiseLinear(API_CURVES[lawn.soilType], apiMm);
    subs.soil = {
      score,
      reason:
        score < 70 ? `Viel Vorregen (${formatNumberDe(values.rain_14d)} mm in 14 Tagen) – Boden noch nicht ausreichend tragfähig.` : null,
    };
    return 'api_estimate';
  }
  found.skippedParts.sml = {
    reason: 'No soil moisture and no 14-day rain sum; the soil moisture load cannot be assessed.',
    missing: ['soil_moisture', 'rain_14d'],
  };
  return null;
}

/** The sub-models' results in SUB_MODEL_ORDER, read by name once (a loop of keyed reads was megamorphic). */
function inTieOrder(subs: RainFindings['subs']): readonly (SubResult | undefined)[] {
  return [subs.precipitation, subs.surface_wetness, subs.residual, subs.cumulative, subs.soil];
}

/** The lowest sub-score and its sub-model (ties in SUB_MODEL_ORDER). */
function limitingSub(ordered: readonly (SubResult | undefined)[]): { score: number; limitingFactor: SubModel } {
  let score = Number.POSITIVE_INFINITY;
  let limitingFactor: SubModel = 'precipitation';
  for (let i = 0; i < ordered.length; i++) {
    const sub = ordered[i];
    if (sub !== undefined && sub.score < score) {
      score = sub.score;
      limitingFactor = SUB_MODEL_ORDER[i] as SubModel;
    }
  }
  return { score, limitingFactor };
}

const BY_SCORE = (a: SubResult, b: SubResult): number => a.score - b.score;

function rainReasons(
  ordered: readonly (SubResult | undefined)[],
  since: MinutesSinceRain | null,
  windows: EffectiveRainWindows | null,
): string[] {
  const reasons: string[] = [];
  let explained: SubResult[] | undefined;
  for (let i = 0; i < ordered.length; i++) {
    const sub = ordered[i];
    if (sub !== undefined && sub.reason !== null && sub.reason !== '') (explained ??= []).push(sub);
  }
  if (explained !== undefined) {
    // Most severe finding first; equal scores keep the tie order (the sort is stable).
    if (explained.length > 1) explained.sort(BY_SCORE);
    for (const entry of explained) reasons.push(entry.reason as string);
  }
  if (reasons.length === 0) {
    reasons.push(
      since !== null && since.source === 'measured'
        ? `Kein Niederschlag, letzter Regen ${agoDe(since.minutes)} – Rasen abgetrocknet.`
        : 'Kein Niederschlag – Rasen trocken.',
    );
  }
  if (windows?.inconsistent) {
    reasons.push('Hinweis: Regenfenster widersprüchlich – das kürzere Fenster wurde als Untergrenze des längeren verwendet.');
  }
  return reasons;
}

/**
 * Low without any rain window, minutes_since_rain or soil_moisture; high with every rain window,
 * minutes_since_rain and humidity; else medium. Read by name (a list of names read in a loop was a
 * megamorphic lookup per name).
 */
function rainDataConfidence(values: CheckContext['values']): CheckEvaluation['dataConfidence'] {
  const { rain_1h: r1, rain_12h: r12, rain_24h: r24, rain_14d: r14d, minutes_since_rain: since } = values;
  const anyWindow = r1 !== undefined || r12 !== undefined || r24 !== undefined || r14d !== undefined || since !== undefined;
  if (!anyWindow && values.soil_moisture === undefined) return 'low';
  return r1 !== undefined &&
    r12 !== undefined &&
    r24 !== undefined &&
    r14d !== undefined &&
    since !== undefined &&
    values.humidity !== undefined
    ? 'high'
    : 'medium';
}

/**
 * The sub-models' scores for meta, in tie order (SUB_MODEL_ORDER), written by name: a loop's keyed
 * stores into a fresh object cost more than the rounding.
 */
function subScores(subs: RainFindings['subs']): Partial<Record<SubModel, number>> {
  const scores: Partial<Record<SubModel, number>> = {};
  if (subs.precipitation !== undefined) scores.precipitation = roundTo(subs.precipitation.score, 1);
  if (subs.surface_wetness !== undefined) scores.surface_wetness = roundTo(subs.surface_wetness.score, 1);
  if (subs.residual !== undefined) scores.residual = roundTo(subs.residual.score, 1);
  if (subs.cumulative !== undefined) scores.cumulative = roundTo(subs.cumulative.score, 1);
  if (subs.soil !== undefined) scores.soil = roundTo(subs.soil.score, 1);
  return scores;
}

function evaluate({ values, extensions = {}, season, lawn, soilEstimate, rainWindows, drying: given }: CheckContext): CheckEvaluation {
  const rateMmH = values.precipitation_rate ?? 0;
  const tempC = values.temperature ?? 15;
  const windows = rainWindows === undefined ? effectiveRainWindows(values) : rainWindows;
  const since = minutesSinceRain(rateMmH, values);
  const drying = given ?? dryingPotential(tempC, values.humidity, values.solar, values.wind_speed);
  const found: RainFindings = { subs: {}, skippedParts: {}, modelsExecuted: [] };
  const { subs } = found;

  subs.precipitation = {
    score: precipitationScore(rateMmH),
    reason: rateMmH > 0 ? `${emphasis('Es regnet')} (${formatNumberDe(rateMmH, 2)} mm/h) – nicht mähen.` : null,
  };
  const wetness = surfaceWetnessSub(found, values, since, extensions);
  const cumulativeMm = cumulativeSub(found, windows);
  residualSub(found, values, windows, since, lawn.soilType);
  const apiMm = antecedentPrecipitationMm(values, windows, season);
  const soilSource = soilSub(found, values, apiMm, { lawn, soilEstimate });
  const ordered = inTieOrder(subs);
  const { score, limitingFactor } = limitingSub(ordered);

  const soilScore = subs.soil?.score;
  return {
    score,
    dataConfidence: rainDataConfidence(values),
    reasons: rainReasons(ordered, since, windows),
    skippedParts: found.skippedParts,
    meta: {
      rain_source: windows === null ? 'precipitation_rate' : (windows.supplied[windows.supplied.length - 1] ?? null),
      rain_cumulative: cumulativeMm === null ? null : roundTo(cumulativeMm, 2),
      rain_rate: rateMmH,
      soil_load: soilScore === undefined ? null : soilLoadForScore(soilScore),
      limiting_factor: limitingFactor,
      season,
      models_executed: found.modelsExecuted,
      minutes_since_rain: since === null ? null : since.minutes,
      minutes_since_rain_source: since === null ? null : since.source,
      minutes_since_irrigation: extensions.minutes_since_irrigation ?? null,
      drying_time_min: wetness?.dryingTimeMin == null ? null : Math.round(wetness.dryingTimeMin),
      drying_minutes_left: wetness === null ? null : Math.max(0, Math.round(wetness.minutesLeft)),
      drying_rate_mm_h: wetness === null ? null : roundTo(wetness.rateMmH, 2),
      drying_source: wetness?.source ?? null,
      drying_potential: roundTo(drying.value, 2),
      drying_potential_complete: drying.complete,
      api_mm: apiMm === null ? null : roundTo(apiMm, 1),
      soil_load_source: soilSource,
      windows_inconsistent: windows?.inconsistent ?? false,
      sub_scores: subScores(subs),
    },
  };
}

export const rainCheck: CheckDefinition = {
  name: 'rain',
  weight: 0.3,
  requiredFields: ['precipitation_rate'],
  skippedReason: 'Required field precipitation_rate is missing or invalid.',
  evaluate,
};
