/**
 * The rain check's residual-moisture rule (docs/model.md, "Check: rain"): after much rain, thatch and
 * soil stay wet for a while after the blades have dried.
 */
import { formatNumberDe } from '../format.js';
import { piecewiseLinear } from '../piecewise.js';
import type { EffectiveRainWindows } from '../rainWindows.js';
import { RESIDUAL_MIN } from '../soil.js';
import type { SoilType } from '../types.js';

export const RESIDUAL_FROM_RAIN_12H_MM = 5;
export const RESIDUAL_DOUBLE_FROM_RAIN_24H_MM = 20;
const RESIDUAL_SCORE = 55;

/**
 * Residual moisture after much rain (docs/model.md, "Check: rain"). It applies after ≥ 5 mm in 12 h, and also after
 * ≥ 20 mm in 24 h even when the last 12 h were dry: heavy rain 12–24 h ago still soaks thatch and soil
 * (wait ≥ 1 day after heavy rain; Swiss rule: > 10 mm in 24 h is critical). Heavy rain doubles both windows.
 */
export function residualScore(windows: EffectiveRainWindows, minutes: number, soilType: SoilType): number {
  const heavy24h = windows.rain24hMm >= RESIDUAL_DOUBLE_FROM_RAIN_24H_MM;
  if (windows.rain12hMm < RESIDUAL_FROM_RAIN_12H_MM && !heavy24h) return 100;
  const factor = heavy24h ? 2 : 1;
  const { hold, clear } = RESIDUAL_MIN[soilType];
  return piecewiseLinear(
    [
      [hold * factor, RESIDUAL_SCORE],
      [clear * factor, 100],
    ],
    minutes,
  );
}

/** Names the window that decided the residual rule: the 24 h sum when heavy rain doubled the wait. */
export function residualReason(windows: EffectiveRainWindows): string {
  return windows.rain24hMm >= RESIDUAL_DOUBLE_FROM_RAIN_24H_MM
    ? `Ergiebiger Regen (${formatNumberDe(windows.rain24hMm)} mm in 24 Stunden) – Restfeuchte in Rasenfilz und Boden, nach Starkregen etwa einen Tag warten.`
    : `Ergiebiger Regen (${formatNumberDe(windows.rain12hMm)} mm in 12 Stunden) – Restfeuchte in Rasenfilz und Boden.`;
}
