/**
 * Water on the grass blades as a balance (mm), stepped reading by reading. Pure.
 *
 * In: rain (up to the sward's storage), dew (calm, humid, dark), a sprinkler run (fills the storage).
 * Out: evaporation of the wet canopy by the model's one drying model (../drying.ts, FAO-56 eq. 53 with
 * rs = 0), the same the rain check and the forecast use.
 */
import { INTERCEPTION_STORAGE_MM, MIN_DRYING_RATE_MM_H, dryingRateMmH } from '../drying.js';
import type { EtWeather } from './evaporation.js';

/** Water the sward holds on its blades, mm: the drying model's interception storage. */
export const BLADE_STORAGE_MM = INTERCEPTION_STORAGE_MM;
/** Dew deposition on calm clear nights, mm/h: ~0.4 mm in a 10-hour night (Monteith 1957: rarely above 0.5 mm a night). */
export const DEW_RATE_MM_H = 0.04;
/** Dew forms at RH ≥ 90 % or a dew-point spread below 1 K … */
export const DEW_MIN_RH = 90;
export const DEW_MAX_SPREAD_K = 1;
/** … in calm air (no dew above ~11 km/h, Iowa State Agron 541; model D2) … */
export const DEW_MAX_WIND_KMH = 11;
/** … without sun (night or twilight). */
export const DEW_MAX_SOLAR_WM2 = 20;
export { MIN_DRYING_RATE_MM_H };

/** The drying rate of the blades in this weather, mm/h; 0 in dew weather or without humidity and dew point (unknown). */
export function bladeDryingRateMmH(weather: EtWeather): number {
  if (isDewWeather(weather) || (weather.humidityPct === undefined && weather.dewPointC === undefined)) return 0;
  return dryingRateMmH(weather);
}

export interface BladeState {
  /** Water on the blades, mm, 0..BLADE_STORAGE_MM. */
  waterMm: number;
  /** When the blades last became dry (epoch ms); null while wet or unknown. */
  drySinceMs: number | null;
}

export const DRY_BLADES: BladeState = { waterMm: 0, drySinceMs: null };

export function isDewWeather(weather: EtWeather): boolean {
  const rh = weather.humidityPct;
  const spread = weather.dewPointC === undefined ? undefined : weather.temperatureC - weather.dewPointC;
  const humid = (rh !== undefined && rh >= DEW_MIN_RH) || (spread !== undefined && spread < DEW_MAX_SPREAD_K);
  return humid && (weather.windKmh ?? 0) < DEW_MAX_WIND_KMH && (weather.solarWm2 ?? 0) < DEW_MAX_SOLAR_WM2;
}

export interface BladeStep {
  /** Start and end of the step, epoch ms. */
  fromMs: number;
  toMs: number;
  /** Rain in the step, mm. */
  rainMm: number;
  /** Weather during the step (the earlier reading's); undefined when unknown (no humidity): nothing evaporates. */
  weather: EtWeather | undefined;
  /** A sprinkler ran in the step. */
  irrigated?: boolean;
}

/** The blade water after one step. Rain and irrigation come first, then dew or evaporation over the step. */
export function stepBlades(state: BladeState, step: BladeStep): BladeState {
  const hours = Math.max(0, step.toMs - step.fromMs) / 3_600_000;
  let water = Math.min(BLADE_STORAGE_MM, state.waterMm + Math.max(0, step.rainMm));
  if (step.irrigated) water = BLADE_STORAGE_MM;
  const wetBefore = water > 0;
  if (step.weather && isDewWeather(step.weather)) {
    water = Math.min(BLADE_STORAGE_MM, water + DEW_RATE_MM_H * hours);
  } else if (step.weather && wetBefore) {
    const rate = bladeDryingRateMmH(step.weather);
    if (rate > 0 && water <= rate * hours) {
      // Dry within the step: at the moment the film is gone.
      return { waterMm: 0, drySinceMs: Math.round(step.fromMs + (water / rate) * 3_600_000) };
    }
    water -= rate * hours;
  }
  if (water > 0) return { waterMm: water, drySinceMs: null };
  return { waterMm: 0, drySinceMs: wetBefore ? step.toMs : state.drySinceMs };
}

/** Minutes to dry at the current weather; null when dry, Infinity when nothing evaporates now. */
export function dryingMinutesLeft(state: BladeState, weather: EtWeather | undefined): number | null {
  if (state.waterMm <= 0) return null;
  const rate = weather ? bladeDryingRateMmH(weather) : 0;
  return rate > 0 ? Math.ceil((state.waterMm / rate) * 60) : Number.POSITIVE_INFINITY;
}

/** The drying time the core is given (finite): nothing evaporating now counts as MIN_DRYING_RATE_MM_H. */
export function coreDryingMinutes(state: BladeState, weather: EtWeather | undefined): number | null {
  const minutes = dryingMinutesLeft(state, weather);
  if (minutes === null) return null;
  return Number.isFinite(minutes) ? minutes : Math.ceil((state.waterMm / MIN_DRYING_RATE_MM_H) * 60);
}
