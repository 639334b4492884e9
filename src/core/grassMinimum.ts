/**
 * Ground frost from the 2 m air minimum (docs/model.md, "Ground frost from the air minimum"). Pure.
 *
 * On clear, calm nights the grass surface radiates to the sky and ends typically 2–4 K colder than the
 * 2 m air: the DWD measures this "Erdbodenminimum" 5 cm above the ground beside the 2 m minimum for
 * exactly that reason (DWD Wetterlexikon „Erdbodenminimumtemperatur“, „Bodenfrost“). A 2 m minimum of
 * +3 °C can therefore leave hoarfrost on the blades. The station does not know whether the night was
 * clear and calm, so the model takes the middle of that range.
 *
 * Thawing: strong sun warms the blades above the air, but only once it has shone for a while; the rise
 * of the air since its minimum measures that time. The frost counts as thawed when the air is 8 °C or
 * warmer, or when strong sun shines and the air has risen at least the depression above its minimum
 * (the grass layer has then made up its night deficit).
 */

/** Grass (5 cm) minimum below the 2 m air minimum on a clear calm night, K: the middle of 2–4 K. */
export const GRASS_MINIMUM_DEPRESSION_K = 3;
/** Hoarfrost forms on the blades at a grass temperature at or below this, °C. */
export const HOARFROST_GRASS_C = 0;
/** Below this air temperature frost from the early hours has not thawed off the blades without sun. */
export const THAW_AIR_C = 8;
/** From this irradiance the sun warms the blades above the air (active thawing and drying). */
export const THAW_SOLAR_WM2 = 300;

/** The estimated grass minimum, °C, for a 2 m air minimum. */
export function grassMinimumC(airMinimumC: number): number {
  return airMinimumC - GRASS_MINIMUM_DEPRESSION_K;
}

/** The lowest air temperature of the last 3 hours; the current reading belongs to that window. */
export function airMinimumC(tempC: number, minTemp3hC: number | undefined): number {
  return Math.min(minTemp3hC ?? tempC, tempC);
}

/** True when frost on the blades has thawed by now (warm air, or sun long enough to make up the depression). */
export function frostThawed(tempC: number, airMinC: number, solarWm2: number | undefined): boolean {
  if (tempC >= THAW_AIR_C) return true;
  const strongSun = solarWm2 !== undefined && solarWm2 >= THAW_SOLAR_WM2;
  return strongSun && tempC - airMinC >= GRASS_MINIMUM_DEPRESSION_K;
}

/** True when hoarfrost or ground frost is likely on the blades now. */
export function hoarfrostOnBlades(tempC: number, minTemp3hC: number | undefined, solarWm2: number | undefined): boolean {
  const airMin = airMinimumC(tempC, minTemp3hC);
  return grassMinimumC(airMin) <= HOARFROST_GRASS_C && !frostThawed(tempC, airMin, solarWm2);
}
