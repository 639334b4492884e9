/**
 * Water on the grass blades as a balance (mm), stepped reading by reading. Pure.
 *
 * In: rain (up to the sward's storage), dew (calm, humid, dark), a sprinkler run (fills the storage).
 * Out: evaporation at the reference rate ET0 (FAO-56, ./evaporation.ts) — a wet grass surface
 * evaporates at about the reference rate, since the reference surface *is* well-watered short grass.
 */
import { referenceEtMmPerHour, type EtWeather } from './evaporation.js';

/**
 * Water the sward holds on its blades, mm. Calibrated so that a full sward dries in about 2.5–3 h of a
 * sunny temperate afternoon (ET0 ≈ 0.35 mm/h), the model's 150-minute drying time after light rain
 * (docs/model.md, D8).
 */
export const BLADE_STORAGE_MM = 1.0;
/** Dew deposition on calm clear nights, mm/h: ~0.4 mm in a 10-hour night (Monteith 1957: rarely above 0.5 mm a night). */
export const DEW_RATE_MM_H = 0.04;
/** Dew forms at RH ≥ 90 % or a dew-point spread below 1 K … */
export const DEW_MIN_RH = 90;
export const DEW_MAX_SPREAD_K = 1;
/** … in calm air (no dew above ~11 km/h, Iowa State Agron 541; model D2) … */
export const DEW_MAX_WIND_KMH = 11;
/** … without sun (night or twilight). */
export const DEW_MAX_SOLAR_WM2 = 20;
/** When nothing evaporates now, the drying time given to the core assumes this slow rate (mm/h). */
export const MIN_DRYING_RATE_MM_H = 0.05;

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
    const rate = referenceEtMmPerHour(step.weather) ?? 0;
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
  const rate = weather && !isDewWeather(weather) ? referenceEtMmPerHour(weather) ?? 0 : 0;
  return rate > 0 ? Math.ceil((state.waterMm / rate) * 60) : Number.POSITIVE_INFINITY;
}

/** The drying time the core is given (finite): nothing evaporating now counts as MIN_DRYING_RATE_MM_H. */
export function coreDryingMinutes(state: BladeState, weather: EtWeather | undefined): number | null {
  const minutes = dryingMinutesLeft(state, weather);
  if (minutes === null) return null;
  return Number.isFinite(minutes) ? minutes : Math.ceil((state.waterMm / MIN_DRYING_RATE_MM_H) * 60);
}
