/**
 * The rain check's surface-wetness sub-model (docs/model.md, "Drying of the blades"): how long the water
 * on the blades takes to dry at the weather of now. Stateless it starts from the rain (or sprinkler run)
 * and the minutes since; the lawn memory's blade-water balance, when given, replaces that estimate: it
 * knows the weather since the rain. Both use the one drying model of src/core/drying.ts. Pure.
 */
import { BLADE_DRYING_CURVE, INTERCEPTION_STORAGE_MM, dryingMinutesAt, dryingRateMmH, type DryingWeather } from '../drying.js';
import { agoDe, durationDe } from '../duration.js';
import { formatNumberDe } from '../format.js';
import type { ExtensionInput } from '../extensionFields.js';
import { piecewiseLinear } from '../piecewise.js';
import { emphasis } from '../reasonText.js';
import type { CheckContext } from './types.js';

export type DryingSource = 'rain' | 'irrigation' | 'water_balance';

export interface SurfaceWetness {
  score: number;
  reason: string | null;
  source: DryingSource;
  /** Minutes the water of the deciding source takes to dry from the start (stateless sources only). */
  dryingTimeMin: number | null;
  /** Minutes until the blades are dry; negative: dry since that long. */
  minutesLeft: number;
  rateMmH: number;
}

/**
 * The drying weather of an input: the current fields, missing ones undefined (the drying model's
 * defaults apply). Every field is always present, so the model reads one object shape.
 */
export function dryingWeatherOf(values: CheckContext['values']): DryingWeather {
  return {
    temperatureC: values.temperature ?? 15,
    humidityPct: values.humidity,
    dewPointC: values.dew_point,
    windKmh: values.wind_speed,
    solarWm2: values.solar,
  };
}

interface Candidate {
  source: DryingSource;
  dryingTimeMin: number | null;
  minutesLeft: number;
  sinceMin: number | null;
}

/**
 * The stateless candidates: the rain and the sprinkler run, each drying since it ended. Both leave the
 * full interception storage: the rain windows do not tell the last shower's amount (12 hours of rain
 * may be one downpour or drizzle that stopped long ago), and taking the amount would let more rain look
 * drier below the storage.
 */
function statelessCandidate(sinceRainMin: number | null, extensions: ExtensionInput, rateMmH: number): Candidate | null {
  const irrigated = extensions.minutes_since_irrigation;
  if (sinceRainMin === null && irrigated === undefined) return null;
  const total = dryingMinutesAt(INTERCEPTION_STORAGE_MM, rateMmH);
  const rain: Candidate | null =
    sinceRainMin === null ? null : { source: 'rain', dryingTimeMin: total, minutesLeft: total - sinceRainMin, sinceMin: sinceRainMin };
  if (irrigated === undefined) return rain;
  const irrigation: Candidate = { source: 'irrigation', dryingTimeMin: total, minutesLeft: total - irrigated, sinceMin: irrigated };
  // The source that dries last decides (equal: the rain).
  return rain === null || irrigation.minutesLeft > rain.minutesLeft ? irrigation : rain;
}

function reasonFor(candidate: Candidate, rateMmH: number): string {
  const left = `trocken in ca. ${durationDe(candidate.minutesLeft)} bei jetzigem Wetter (Verdunstung ${formatNumberDe(rateMmH, 2)} mm/h)`;
  const since = candidate.sinceMin ?? 0;
  if (candidate.source === 'rain') return `Letzter Regen ${agoDe(since)} – ${emphasis('Rasen noch nass')}, ${left}.`;
  if (candidate.source === 'irrigation') return `Bewässerung ${agoDe(since)} – ${emphasis('Rasen noch nass')}, ${left}.`;
  return `Wasser auf den Halmen nach Wasserbilanz – ${emphasis('Rasen noch nass')}, ${left}.`;
}

/**
 * The surface-wetness sub-result, or null when nothing tells whether the blades are wet. The balance
 * (`blade_drying_minutes`) replaces the stateless estimate while it says wet; when it says dry (0) the
 * blades are dry now, and the stateless estimate may only tell how long they have been.
 */
export function surfaceWetness(
  values: CheckContext['values'],
  sinceRainMin: number | null,
  extensions: ExtensionInput,
): SurfaceWetness | null {
  const weather = dryingWeatherOf(values);
  const rateMmH = dryingRateMmH(weather);
  const stateless = statelessCandidate(sinceRainMin, extensions, rateMmH);
  const balance = extensions.blade_drying_minutes;
  let candidate = stateless;
  if (balance !== undefined && balance > 0) {
    candidate = { source: 'water_balance', dryingTimeMin: null, minutesLeft: balance, sinceMin: null };
  } else if (balance !== undefined && stateless !== null) {
    candidate = { ...stateless, minutesLeft: Math.min(0, stateless.minutesLeft) };
  }
  if (candidate === null) return null;
  const score = piecewiseLinear(BLADE_DRYING_CURVE, candidate.minutesLeft);
  const raining = (values.precipitation_rate ?? 0) > 0;
  return {
    score,
    reason: score < 70 && !raining ? reasonFor(candidate, rateMmH) : null,
    source: candidate.source,
    dryingTimeMin: candidate.dryingTimeMin,
    minutesLeft: candidate.minutesLeft,
    rateMmH,
  };
}
