import { formatNumberDe, roundTo } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { Curve } from '../piecewise.js';
import { beaufortForKmh } from '../physics.js';
import type { CheckContext, CheckDefinition, CheckEvaluation } from './types.js';

/** 10-min mean wind, km/h -> score (domain.md §5; Beaufort bounds). */
export const WIND_MEAN_CURVE: Curve = [[15, 100], [20, 95], [29, 80], [39, 55], [50, 30], [62, 10], [75, 0]];
/** Gusts, km/h -> score: > 50 km/h (DWD level 1) WARNING, ≥ 65 km/h (DWD Sturmböen) BLOCK. */
export const WIND_GUST_CURVE: Curve = [[30, 100], [40, 85], [50, 55], [65, 20], [75, 5]];
/** Gust estimate when wind_gusts is missing (gust factor). */
export const GUST_FACTOR = 1.5;
const STORM_GUST_KMH = 65;
const STRONG_GUST_KMH = 50;

function evaluate({ values, season }: CheckContext): CheckEvaluation {
  const windKmh = values.wind_speed ?? 0;
  const measuredGustKmh = values.wind_gusts;
  const gustEstimated = measuredGustKmh === undefined;
  // A gust below the mean is implausible; the mean is its lower bound.
  const gustKmh = Math.max(measuredGustKmh ?? windKmh * GUST_FACTOR, windKmh);
  const meanScore = piecewiseLinear(WIND_MEAN_CURVE, windKmh);
  const gustScore = piecewiseLinear(WIND_GUST_CURVE, gustKmh);
  const score = Math.min(meanScore, gustScore);

  const w = formatNumberDe(windKmh);
  const g = formatNumberDe(gustKmh);
  const gustText = gustEstimated ? `geschätzt ${g} km/h` : `${g} km/h`;
  const reasons: string[] = [];
  if (gustKmh >= STORM_GUST_KMH) {
    reasons.push(`<b>Sturmböen bis ${g} km/h</b> (Bft ${beaufortForKmh(gustKmh)}) – Sicherheitsrisiko, Schnittgut verweht.`);
  } else if (gustKmh > STRONG_GUST_KMH) {
    reasons.push(`<b>Starke Böen bis ${g} km/h</b> (Bft ${beaufortForKmh(gustKmh)}) – Vorsicht, herabfallende Äste, Schnittgut verweht.`);
  }
  if (meanScore < 70) {
    reasons.push(`Starker Wind ${w} km/h (Bft ${beaufortForKmh(windKmh)}) – Schnittgut verweht, Arbeiten unangenehm.`);
  }
  if (reasons.length === 0) {
    reasons.push(`Wind ${w} km/h (Bft ${beaufortForKmh(windKmh)}), Böen ${gustText} – unkritisch.`);
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
      gust_score: roundTo(gustScore, 1),
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
