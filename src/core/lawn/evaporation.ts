/**
 * Hourly FAO-56 Penman–Monteith reference evapotranspiration of a short grass surface (Allen, Pereira,
 * Raes & Smith 1998, FAO Irrigation and Drainage Paper 56, eq. 53), from the station's own readings.
 * Pure. Equation numbers below are FAO-56's.
 */
const SIGMA_HOURLY = 2.043e-10; // Stefan–Boltzmann constant, MJ K⁻⁴ m⁻² h⁻¹ (eq. 53 notes)
const ALBEDO = 0.23; // reference grass (eq. 38)
/** Rs/Rso for the net long-wave term when the clear-sky radiation is not modelled: a partly cloudy sky. */
export const ASSUMED_RS_RSO = 0.8;
/** FAO-56 ch. 3 ("missing wind speed data"): 2 m/s, the average of over 2000 stations, as an estimate. */
export const MISSING_WIND_U2_MS = 2;
/** Anemometer height assumed for station wind (m): the WMO standard; converted to 2 m by eq. 47. */
export const WIND_HEIGHT_M = 10;

export interface EtWeather {
  temperatureC: number;
  /** Actual vapour pressure source: relative humidity %, else dew point °C. */
  humidityPct?: number;
  dewPointC?: number;
  /** km/h at WIND_HEIGHT_M; missing: MISSING_WIND_U2_MS at 2 m. */
  windKmh?: number;
  /** Global radiation W/m²; missing: 0 (as at night: only the aerodynamic term and long-wave loss). */
  solarWm2?: number;
  /** Metres above sea level; missing: 0. */
  elevationM?: number;
}

/** Saturation vapour pressure, kPa (eq. 11). */
export function saturationVapourPressure(tC: number): number {
  return 0.6108 * Math.exp((17.27 * tC) / (tC + 237.3));
}

/** Actual vapour pressure, kPa, from RH (eq. 19 with one temperature; `es` at the temperature when the caller has it) or dew point (eq. 14); undefined without either. */
export function actualVapourPressure(weather: EtWeather, es = saturationVapourPressure(weather.temperatureC)): number | undefined {
  if (weather.humidityPct !== undefined) return (es * weather.humidityPct) / 100;
  if (weather.dewPointC !== undefined) return saturationVapourPressure(weather.dewPointC);
  return undefined;
}

/** Wind speed at 2 m, m/s (eq. 47). */
export function windAt2m(windKmh: number | undefined): number {
  if (windKmh === undefined) return MISSING_WIND_U2_MS;
  return ((windKmh / 3.6) * 4.87) / LOG_PROFILE;
}
/** The logarithmic wind profile's denominator of eq. 47 at WIND_HEIGHT_M. */
const LOG_PROFILE = Math.log(67.8 * WIND_HEIGHT_M - 5.42);

/** Reference evapotranspiration ET0, mm/h (never negative: condensation is the dew rule's job); undefined without humidity. */
export function referenceEtMmPerHour(weather: EtWeather): number | undefined {
  const ea = actualVapourPressure(weather);
  if (ea === undefined) return undefined;
  const t = weather.temperatureC;
  const es = saturationVapourPressure(t);
  const pressure = 101.3 * ((293 - 0.0065 * (weather.elevationM ?? 0)) / 293) ** 5.26; // eq. 7
  const gamma = 0.665e-3 * pressure; // eq. 8
  const u2 = windAt2m(weather.windKmh);
  const rs = Math.max(0, weather.solarWm2 ?? 0) * 0.0036; // W/m² → MJ m⁻² h⁻¹
  const rns = (1 - ALBEDO) * rs; // eq. 38
  const rnl = SIGMA_HOURLY * (t + 273.16) ** 4 * (0.34 - 0.14 * Math.sqrt(Math.max(0, ea))) * (1.35 * ASSUMED_RS_RSO - 0.35); // eq. 39
  const rn = rns - rnl; // eq. 40
  const g = rs > 0 ? 0.1 * rn : 0.5 * rn; // eqs. 45, 46
  return Math.max(0, penmanMonteithHourly({ temperatureC: t, es, ea, u2, rn, g, gamma }));
}

/** FAO-56 eq. 53 itself (mm/h): radiation in MJ m⁻² h⁻¹, pressures in kPa, u2 in m/s. */
export function penmanMonteithHourly(p: {
  temperatureC: number;
  es: number;
  ea: number;
  u2: number;
  rn: number;
  g: number;
  gamma: number;
}): number {
  const delta = (4098 * p.es) / (p.temperatureC + 237.3) ** 2; // eq. 13
  const numerator = 0.408 * delta * (p.rn - p.g) + p.gamma * (37 / (p.temperatureC + 273)) * p.u2 * Math.max(0, p.es - p.ea);
  return numerator / (delta + p.gamma * (1 + 0.34 * p.u2));
}
