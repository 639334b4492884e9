/**
 * The one drying model of the blades (docs/model.md, "Drying of the blades"), shared by the rain check
 * (stateless: minutes since rain or irrigation and the weather of now), the lawn memory's blade-water
 * balance (src/core/lawn/blades.ts, stateful) and the forecast projection (src/core/forecastDrying.ts).
 * Pure; units are in the names.
 *
 * Water held: a rain or sprinkler run leaves at most the sward's interception storage on the blades.
 * Drying: that film evaporates at the potential rate of a wet canopy, FAO-56 eq. 53 (hourly
 * Penman–Monteith) with the surface resistance of a wet surface, rs = 0 (Allen et al. 1998, ch. 2
 * eq. 3 and ch. 3 eq. 53: the 0.34·u2 term of the denominator is rs/ra with rs = 70 s/m).
 */
import type { Curve } from './piecewise.js';
import { actualVapourPressure, saturationVapourPressure, windAt2m, type EtWeather } from './lawn/evaporation.js';

/**
 * Water a mown lawn holds on its blades after rain or a sprinkler run, mm: the canopy storage
 * S = 0.2 mm × LAI (Dickinson 1984, the storage rule of the BATS and Noah land-surface models) at the
 * leaf area index of a mown lawn, LAI ≈ 3.5: 0.7 mm, the middle of the 0.5–1 mm grass swards hold.
 */
export const INTERCEPTION_STORAGE_MM = 0.7;
/**
 * Least drying rate of a wet film outside dew weather, mm/h (a full storage dries in 20 h): air over a
 * lawn is never perfectly still, so a night without dew still dries it slowly.
 */
export const MIN_DRYING_RATE_MM_H = 0.05;
/** Wind at 2 m never counts below this, m/s (free convection keeps air moving over a wet surface). */
export const CALM_U2_MS = 0.5;
/** Relative humidity assumed when neither humidity nor dew point is known: humid air, slow drying. */
export const UNKNOWN_HUMIDITY_PCT = 90;
/**
 * Global radiation assumed when the station measures none, W/m²: the 24-hour mean over the year in
 * Germany (Deutscher Wetterdienst, annual global radiation about 1,000–1,200 kWh/m², i.e. 114–137
 * W/m²). Unknown is neither night nor full sun: taken as darkness, every station without a
 * pyranometer (most cheap ones) dried at the floor rate, so a sprinkler run ten hours ago in summer
 * still read as wet lawn.
 */
export const UNKNOWN_SOLAR_WM2 = 125;
/** Net emissivity term of FAO-56 eq. 39 at ea = 1.0 kPa (0.34 − 0.14·√1.0), see wetCanopyEvaporationMmH. */
const NET_EMISSIVITY = 0.2;
const SIGMA_HOURLY = 2.043e-10; // MJ K⁻⁴ m⁻² h⁻¹ (FAO-56 eq. 53 notes)
const ALBEDO = 0.23; // FAO-56 eq. 38
const CLOUDINESS = 1.35 * 0.8 - 0.35; // FAO-56 eq. 39 at Rs/Rso = 0.8 (the lawn memory's ASSUMED_RS_RSO)
const GAMMA_SEA_LEVEL = 0.665e-3 * 101.3; // FAO-56 eqs. 7 and 8 at sea level, kPa/°C

/** The weather the drying model reads; temperature is required, the rest has conservative defaults. */
export type DryingWeather = EtWeather;

/**
 * Evaporation of a wet grass canopy, mm/h, never negative (condensation is the dew rule's job):
 * FAO-56 eq. 53 with rs = 0, i.e. the denominator Δ + γ. Three deliberate departures make it a
 * monotone drying power: (1) G = 0.1·Rn while Rn > 0, else 0.5·Rn (eqs. 45, 46 by the sign of Rn
 * instead of by day and night, so a little sun never lowers the rate); (2) the net emissivity of
 * eq. 39 is taken at ea = 1.0 kPa (drier air would otherwise cool the film faster than it dries it in
 * still air); (3) u2 ≥ 0.5 m/s. Pressure is the sea-level value (γ changes ~1 % per 100 m).
 */
export function wetCanopyEvaporationMmH(weather: DryingWeather): number {
  const t = weather.temperatureC;
  const es = saturationVapourPressure(t);
  const ea = Math.min(es, actualVapourPressure(weather, es) ?? (es * UNKNOWN_HUMIDITY_PCT) / 100);
  const u2 = Math.max(CALM_U2_MS, weather.windKmh === undefined ? CALM_U2_MS : windAt2m(weather.windKmh));
  const rs = Math.max(0, weather.solarWm2 ?? UNKNOWN_SOLAR_WM2) * 0.0036; // W/m² → MJ m⁻² h⁻¹
  const rnl = SIGMA_HOURLY * (t + 273.16) ** 4 * NET_EMISSIVITY * CLOUDINESS;
  const rn = (1 - ALBEDO) * rs - rnl;
  const g = rn > 0 ? 0.1 * rn : 0.5 * rn;
  const delta = (4098 * es) / (t + 237.3) ** 2; // eq. 13
  const numerator = 0.408 * delta * (rn - g) + GAMMA_SEA_LEVEL * (37 / (t + 273)) * u2 * (es - ea);
  return Math.max(0, numerator / (delta + GAMMA_SEA_LEVEL));
}

/** The rate the blades dry at, mm/h: the wet-canopy rate, at least MIN_DRYING_RATE_MM_H. */
export function dryingRateMmH(weather: DryingWeather): number {
  return Math.max(MIN_DRYING_RATE_MM_H, wetCanopyEvaporationMmH(weather));
}

/** Minutes `waterMm` on the blades takes to dry at the weather's rate. */
export function dryingMinutesFor(waterMm: number, weather: DryingWeather): number {
  return dryingMinutesAt(waterMm, dryingRateMmH(weather));
}

/** Minutes `waterMm` on the blades takes to dry at `rateMmH` (a dryingRateMmH). */
export function dryingMinutesAt(waterMm: number, rateMmH: number): number {
  return (Math.max(0, waterMm) / rateMmH) * 60;
}

/**
 * Minutes until the blades are dry → surface-wetness score; negative minutes: dry since that long.
 * 70 (OK) when the film has just gone, 100 one to two hours later (thatch and lower canopy); BLOCK
 * with more than an hour to go, 15 for a night's worth. The 1.1 dry-down curve (on minutes / drying
 * time) at a typical two-hour drying time, on an absolute scale so that the balance and the stateless
 * estimate are rated alike.
 */
export const BLADE_DRYING_CURVE: Curve = [
  [-120, 100],
  [-60, 90],
  [0, 70],
  [20, 55],
  [60, 40],
  [120, 20],
  [240, 15],
];
