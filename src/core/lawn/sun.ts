/**
 * Sunrise and sunset for a latitude/longitude and a UTC day (pure), after the NOAA Solar Calculator
 * (Jean Meeus, "Astronomical Algorithms", 2nd ed. 1998, ch. 15 and 25 in the low-accuracy form NOAA uses):
 * the sun's centre at −0.833° altitude (refraction 0.567° plus the semi-diameter 0.266°). Accuracy about a
 * minute between ±65° latitude, plenty for a quiet-hours rule with 30-minute margins.
 */
const DAY_MS = 86_400_000;
const RAD = Math.PI / 180;
/** Altitude of the sun's centre at sunrise/sunset (degrees). */
export const SUNRISE_ALTITUDE_DEG = -0.833;

export type SunDay = { kind: 'normal'; sunriseMs: number; sunsetMs: number } | { kind: 'polar_day' } | { kind: 'polar_night' };

/** Declination (rad) and equation of time (minutes) at a Julian century. */
function solarPosition(jc: number): { declination: number; eqTimeMin: number } {
  const meanLong = (280.46646 + jc * (36000.76983 + jc * 0.0003032)) % 360;
  const meanAnom = 357.52911 + jc * (35999.05029 - 0.0001537 * jc);
  const ecc = 0.016708634 - jc * (0.000042037 + 0.0000001267 * jc);
  const center =
    Math.sin(meanAnom * RAD) * (1.914602 - jc * (0.004817 + 0.000014 * jc)) +
    Math.sin(2 * meanAnom * RAD) * (0.019993 - 0.000101 * jc) +
    Math.sin(3 * meanAnom * RAD) * 0.000289;
  const omega = 125.04 - 1934.136 * jc;
  const apparentLong = meanLong + center - 0.00569 - 0.00478 * Math.sin(omega * RAD);
  const obliquity = 23 + (26 + (21.448 - jc * (46.815 + jc * (0.00059 - jc * 0.001813))) / 60) / 60 + 0.00256 * Math.cos(omega * RAD);
  const declination = Math.asin(Math.sin(obliquity * RAD) * Math.sin(apparentLong * RAD));
  const y = Math.tan((obliquity / 2) * RAD) ** 2;
  const l0 = meanLong * RAD;
  const m = meanAnom * RAD;
  const eqTime =
    y * Math.sin(2 * l0) -
    2 * ecc * Math.sin(m) +
    4 * ecc * y * Math.sin(m) * Math.cos(2 * l0) -
    0.5 * y * y * Math.sin(4 * l0) -
    1.25 * ecc * ecc * Math.sin(2 * m);
  return { declination, eqTimeMin: (4 * eqTime) / RAD };
}

/** Sunrise and sunset of the UTC calendar day containing `dayMs`, at the station (east longitude positive). */
export function sunDay(dayMs: number, latitude: number, longitude: number): SunDay {
  const dayStart = Math.floor(dayMs / DAY_MS) * DAY_MS;
  // Evaluated at local solar noon, where the day's declination is representative.
  const noonGuessMs = dayStart + DAY_MS / 2 - (longitude / 360) * DAY_MS;
  const jc = (noonGuessMs / DAY_MS + 2440587.5 - 2451545) / 36525;
  const { declination, eqTimeMin } = solarPosition(jc);
  const cosH =
    (Math.sin(SUNRISE_ALTITUDE_DEG * RAD) - Math.sin(latitude * RAD) * Math.sin(declination)) /
    (Math.cos(latitude * RAD) * Math.cos(declination));
  if (cosH < -1) return { kind: 'polar_day' };
  if (cosH > 1) return { kind: 'polar_night' };
  const hourAngleMin = (Math.acos(cosH) / RAD) * 4;
  const noonMin = 720 - 4 * longitude - eqTimeMin;
  return {
    kind: 'normal',
    sunriseMs: dayStart + Math.round((noonMin - hourAngleMin) * 60_000),
    sunsetMs: dayStart + Math.round((noonMin + hourAngleMin) * 60_000),
  };
}
