import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { dormancy, type Dormancy } from '../dormancy.js';
import { droughtCap } from '../drought.js';
import { frostCaps, groundFrostNow, nightFrostOnBlades } from '../frost.js';
import { heatStressCap } from '../heat.js';
import { fieldCapacityPct } from '../soil.js';
import { TURF_PROFILES } from '../turf.js';
import type { Season, SkippedPart } from '../types.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';
import { emphasis } from '../reasonText.js';

/** Air temperature (°C) -> score of the default (cool-season) lawn; the turf profile decides (../turf.ts). */
export const AIR_TEMPERATURE_CURVE: Curve = TURF_PROFILES.cool_season.airCurve;

export const UNSTABLE_GROWTH_CAP = 65;
/** min_temp_14d at or below this marks an unstable growth phase in spring and autumn. */
export const UNSTABLE_GROWTH_MIN_TEMP_C = -2;
const COLD_FROM_C = 10;
const FROST_KIND_DE: Readonly<Record<Season, string>> = { spring: 'Spätfrost', summer: 'Frost', autumn: 'Frühfrost', winter: 'Frost' };

/** PACE Turf growth potential (informational only). */
function growthPotential(tempC: number): number {
  return Math.exp(-0.5 * ((tempC - 20) / 5.5) ** 2);
}

/**
 * Whether the growth phase is stable: false when dormant or after a recent hard frost (each adds its
 * cap), true in summer, null when the 14-day minimum is missing (a skipped part).
 */
function growthPhaseStability(
  { values, season }: Pick<CheckContext, 'values' | 'season'>,
  dormant: Dormancy | null,
  caps: Array<{ cap: number; reason: string }>,
  skippedParts: Record<string, SkippedPart>,
): boolean | null {
  const minTemp14dC = values.min_temp_14d;
  const minTemp3dC = values.min_temp_3d;
  if (dormant !== null) {
    caps.push({ cap: dormant.cap, reason: dormant.reason });
    return false;
  }
  if (season === 'summer') return true;
  if (minTemp14dC === undefined) {
    skippedParts.growth_phase = {
      reason: 'No 14-day minimum temperature; the stability of the growth phase cannot be assessed.',
      missing: ['min_temp_14d'],
    };
    return null;
  }
  // A frost older than 3 days stops mattering (model 1.1, D4): frost harms turf through traffic
  // while it is frozen (USGA); min_temp_3d above 0 shows the last 3 days were frost-free.
  const frostIsOld = minTemp3dC !== undefined && minTemp3dC > 0;
  const stable = minTemp14dC > UNSTABLE_GROWTH_MIN_TEMP_C || frostIsOld;
  if (!stable) {
    const kind = FROST_KIND_DE[season];
    caps.push({
      cap: UNSTABLE_GROWTH_CAP,
      reason: `Wachstumsphase instabil – ${kind} in den letzten 14 Tagen (min. ${formatNumberDe(minTemp14dC)} °C).`,
    });
  }
  return stable;
}

/** Caps first, lowest cap first (the most severe finding leads), then heat or cold, else the all-clear. */
function temperatureReasons(
  caps: ReadonlyArray<{ cap: number; reason: string }>,
  tempC: number,
  heatFromC: number,
  droughtDecided: boolean,
): string[] {
  const t = formatNumberDe(tempC);
  const reasons: string[] = [];
  for (const entry of caps.length > 1 ? [...caps].sort((a, b) => a.cap - b.cap) : caps) reasons.push(entry.reason);
  if (tempC > 0 && tempC >= heatFromC) {
    // Heat leads unless drought and heat together decided the score (that reason names both).
    const heat = `${emphasis(`Hitze ${t} °C`)} – Hitzestress, Gras wächst kaum; Mähen vermeiden oder in die Abendstunden legen.`;
    if (droughtDecided) reasons.push(heat);
    else reasons.unshift(heat);
  } else if (tempC > 0 && tempC < COLD_FROM_C) {
    reasons.push(`Kühl (${t} °C) – Gras wächst langsam, Schnittwunden heilen schlecht.`);
  }
  if (reasons.length === 0) reasons.push(`Lufttemperatur ${t} °C – gute Wachstumsbedingungen.`);
  return reasons;
}

function frostState(
  tempC: number,
  minTemp3hC: number | undefined,
  minTemp3dC: number | undefined,
  solar: number | undefined,
  localHour: number | undefined,
): 'present' | 'possible' | 'none' {
  return tempC <= 0 ||
    (minTemp3hC !== undefined && minTemp3hC <= 0) ||
    groundFrostNow(tempC, minTemp3hC, solar) ||
    nightFrostOnBlades(tempC, minTemp3dC, solar, localHour)
    ? 'present'
    : (minTemp3hC !== undefined && minTemp3hC <= 3 && tempC < 5) ||
        (minTemp3hC === undefined && tempC < 5) ||
        (minTemp3dC !== undefined && minTemp3dC <= 0)
      ? 'possible'
      : 'none';
}

function evaluate({ values, season, localHour, lawn, soilEstimate }: CheckContext): CheckEvaluation {
  const tempC = values.temperature ?? Number.NaN;
  const minTemp3hC = values.min_temp_3h;
  const minTemp3dC = values.min_temp_3d;
  const minTemp14dC = values.min_temp_14d;
  const skippedParts: Record<string, SkippedPart> = {};

  const caps = frostCaps(tempC, minTemp3hC, minTemp3dC, values.solar, localHour);
  if (minTemp3hC === undefined && minTemp3dC === undefined) {
    skippedParts.frost_history = {
      reason: 'No minimum temperature history; frost in the last hours or days cannot be assessed.',
      missing: ['min_temp_3h', 'min_temp_3d'],
    };
  }

  // Dormancy comes from the soil (or frost and cold air), not from the month (model 1.1, D4).
  const dormant = dormancy(values, lawn.turfType);
  const growthPhaseStable = growthPhaseStability({ values, season }, dormant, caps, skippedParts);

  const turf = TURF_PROFILES[lawn.turfType];
  const heatFromC = turf.heatStressFromC;
  const drought =
    droughtCap(values, season, tempC, heatFromC, soilEstimate) ??
    heatStressCap(values, fieldCapacityPct(lawn), tempC, heatFromC, turf.hotSoilFromC);
  if (drought !== null) caps.push(drought);

  const airScore = piecewiseLinear(turf.airCurve, tempC);
  let score = airScore;
  for (const entry of caps) score = Math.min(score, entry.cap);

  const reasons = temperatureReasons(caps, tempC, heatFromC, drought !== null && drought.cap < airScore);
  const frost = frostState(tempC, minTemp3hC, minTemp3dC, values.solar, localHour);
  const growthPhase =
    dormant !== null || tempC < 5 ? 'dormant' : tempC >= heatFromC ? 'heat_stress' : growthPhaseStable === false ? 'starting' : 'active';

  const allRefining = minTemp3hC !== undefined && minTemp3dC !== undefined && minTemp14dC !== undefined;
  return {
    score,
    dataConfidence: allRefining ? 'high' : 'medium',
    reasons,
    skippedParts,
    meta: {
      temperature: tempC,
      season,
      min_temp_14d: minTemp14dC ?? null,
      growth_phase_stable: growthPhaseStable,
      min_temp_3h: minTemp3hC ?? null,
      min_temp_3d: minTemp3dC ?? null,
      air_temperature_score: roundTo(airScore, 1),
      frost,
      growth_phase: growthPhase,
      growth_potential: roundTo(growthPotential(tempC), 2),
      dry_spell: drought !== null,
      dormancy: dormant?.evidence ?? null,
    },
  };
}

export const temperatureCheck: CheckDefinition = {
  name: 'temperature',
  weight: 0.2,
  requiredFields: ['temperature'],
  skippedReason: 'Required field temperature is missing or invalid.',
  evaluate,
};
