import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { beaufortForKmh } from '../physics.js';
import { statusForScore, toScore } from '../status.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';
import { emphasis } from '../reasonText.js';

/** 10-min mean wind, km/h -> score (docs/model.md, "Check: wind"; Beaufort bounds). */
export const WIND_MEAN_CURVE: Curve = [
  [15, 100],
  [20, 95],
  [29, 80],
  [39, 55],
  [50, 30],
  [62, 10],
  [75, 0],
];
/** Gusts, km/h -> score; it ranks gusts inside the bands that the DWD caps below fix. */
export const WIND_GUST_CURVE: Curve = [
  [30, 100],
  [40, 85],
  [50, 70],
  [65, 40],
  [75, 5],
];
/** Gust estimate when wind_gusts is missing (gust factor). */
export const GUST_FACTOR = 1.5;
/** DWD Windwarnskala: gusts above 50 km/h (level 1, Bft 7) are a WARNING, from 65 km/h (Sturmböen) a BLOCK. */
export const STRONG_GUST_ABOVE_KMH = 50;
export const STORM_GUST_FROM_KMH = 65;
const WARNING_CAP = 69;
const BLOCK_CAP = 39;

/**
 * Gust score: the curve, capped so that the status changes exactly at the DWD
 * thresholds (a continuous curve plus rounding cannot switch at a point).
 */
export function gustScore(gustKmh: number): number {
  const curve = piecewiseLinear(WIND_GUST_CURVE, gustKmh);
  if (gustKmh >= STORM_GUST_FROM_KMH) return Math.min(curve, BLOCK_CAP);
  if (gustKmh > STRONG_GUST_ABOVE_KMH) return Math.min(curve, WARNING_CAP);
  return curve;
}

interface ScoredReason {
  score: number;
  reason: string;
}

/** The reason follows the band of the sub-score it explains, so text and status never disagree. */
function gustReason(score: number, gustText: string, gustKmh: number): ScoredReason | null {
  const status = statusForScore(toScore(score));
  if (status === 'OK') return null;
  const bft = beaufortForKmh(gustKmh);
  if (status === 'BLOCK')
    return { score, reason: `${emphasis(`Sturmböen bis ${gustText}`)} (Bft ${bft}) – Sicherheitsrisiko, Schnittgut verweht.` };
  return { score, reason: `${emphasis(`Starke Böen bis ${gustText}`)} (Bft ${bft}) – Vorsicht, herabfallende Äste, Schnittgut verweht.` };
}

function meanReason(score: number, windKmh: number): ScoredReason | null {
  const status = statusForScore(toScore(score));
  if (status === 'OK') return null;
  const w = formatNumberDe(windKmh);
  const bft = beaufortForKmh(windKmh);
  if (status === 'BLOCK')
    return {
      score,
      reason: `${emphasis(`Sehr starker Wind ${w} km/h`)} (Bft ${bft}) – Sicherheitsrisiko, herabfallende Äste, nicht mähen.`,
    };
  return { score, reason: `Kräftiger Wind ${w} km/h (Bft ${bft}) – Schnittgut verweht, Arbeiten unangenehm.` };
}

function evaluate({ values, season }: CheckContext): CheckEvaluation {
  const windKmh = values.wind_speed ?? 0;
  const measuredGustKmh = values.wind_gusts;
  const gustEstimated = measuredGustKmh === undefined;
  // A gust below the mean is implausible; the mean is its lower bound.
  const gustKmh = Math.max(measuredGustKmh ?? windKmh * GUST_FACTOR, windKmh);
  const meanScore = piecewiseLinear(WIND_MEAN_CURVE, windKmh);
  const gustSubScore = gustScore(gustKmh);
  const score = Math.min(meanScore, gustSubScore);

  const g = formatNumberDe(gustKmh);
  const gustText = gustEstimated ? `geschätzt ${g} km/h` : `${g} km/h`;
  const gust = gustReason(gustSubScore, gustText, gustKmh);
  const mean = meanReason(meanScore, windKmh);
  const reasons: string[] = [];
  if (gust !== null && mean !== null) {
    // Most severe first; on a tie the gust (the safety finding) leads.
    reasons.push(...(mean.score < gust.score ? [mean.reason, gust.reason] : [gust.reason, mean.reason]));
  } else {
    const only = gust ?? mean;
    if (only !== null) reasons.push(only.reason);
  }
  if (reasons.length === 0) {
    reasons.push(`Wind ${formatNumberDe(windKmh)} km/h (Bft ${beaufortForKmh(windKmh)}), Böen ${gustText} – unkritisch.`);
  }
  if (season === 'autumn' && score >= 40 && windKmh >= 20) {
    reasons.push('Herbst: Wind verteilt Laub auf dem Rasen – vor dem Mähen abrechen.');
  }

  return {
    score,
    dataConfidence: gustEstimated ? 'medium' : 'high',
    reasons,
    skippedParts: {},
    meta: {
      wind: windKmh,
      gust: roundTo(gustKmh, 1),
      season,
      gust_estimated: gustEstimated,
      gust_measured: measuredGustKmh ?? null,
      beaufort: beaufortForKmh(windKmh),
      mean_score: roundTo(meanScore, 1),
      gust_score: roundTo(gustSubScore, 1),
    },
  };
}

export const windCheck: CheckDefinition = {
  name: 'wind',
  weight: 0.1,
  requiredFields: ['wind_speed'],
  skippedReason: 'Required field wind_speed is missing or invalid.',
  evaluate,
};
