/**
 * How a forecast's precipitation probability enters the model (docs/model.md,
 * "Forecast: precipitation probability"). The probability of precipitation
 * (PoP) is the chance that measurable rain falls at the point in that hour
 * (US National Weather Service, https://www.weather.gov/ffc/pop), so the
 * expected amount is probability × amount. That expected amount is what the
 * projection feeds into the rain windows: a 30 % chance of a 10 mm storm
 * weighs 3 mm, a 100 % chance of drizzle weighs the drizzle.
 */

/**
 * An hour counts as "rain expected" from this expected amount on: one tip of a
 * common 0.2 mm tipping-bucket gauge (WMO-No. 8, Guide to Instruments and
 * Methods of Observation, vol. I ch. 6), the least rain a station records.
 */
export const RAIN_EXPECTED_MM = 0.2;

/** Expected rain (mm) of one forecast hour; without a probability the amount counts fully. */
export function expectedRainMm(amountMm: number, probabilityPct?: number): number {
  if (!Number.isFinite(amountMm) || amountMm <= 0) return 0;
  if (probabilityPct === undefined || !Number.isFinite(probabilityPct)) return amountMm;
  const share = Math.min(100, Math.max(0, probabilityPct)) / 100;
  return amountMm * share;
}

export function isRainExpected(expectedMm: number): boolean {
  return expectedMm >= RAIN_EXPECTED_MM;
}
