/** Turf facts shared by several checks; each number is documented in docs/model.md. */
import type { Curve } from './piecewise.js';
import type { TurfType } from './types.js';

/** Cool-season shoot growth slows above ~27–29 °C air (K-State RE 2012; NC State Turf Council). */
export const HEAT_STRESS_FROM_C = 27;
/** Warm-season turf (Bermuda, kikuyu, zoysia) grows best at 27–35 °C air; stress starts above it. */
export const WARM_SEASON_HEAT_STRESS_FROM_C = 35;

export interface TurfProfile {
  /** Air temperature from which heat stresses the turf (heat caps with drought or hot soil). */
  heatStressFromC: number;
  /** Soil temperature at which shoot growth stops (hot-soil BLOCK). */
  hotSoilFromC: number;
  /** Air temperature -> score. */
  airCurve: Curve;
  /** Soil temperature (5–10 cm) -> score. */
  soilCurve: Curve;
}

export const TURF_PROFILES: Readonly<Record<TurfType, TurfProfile>> = {
  cool_season: {
    heatStressFromC: HEAT_STRESS_FROM_C,
    // NC State Turf Council (4-inch soil): shoot growth stops at 32 °C.
    hotSoilFromC: 32,
    airCurve: [
      [0, 0],
      [2, 40],
      [5, 45],
      [8, 55],
      [10, 70],
      [12, 85],
      [15, 100],
      [24, 100],
      [27, 85],
      [30, 55],
      [34, 45],
      [38, 40],
      [40, 20],
      [45, 0],
    ],
    soilCurve: [
      [0, 10],
      [1, 40],
      [4.4, 55],
      [10, 85],
      [12, 100],
      [22, 100],
      [25, 90],
      [29, 70],
      [32, 50],
      [35, 30],
    ],
  },
  warm_season: {
    heatStressFromC: WARM_SEASON_HEAT_STRESS_FROM_C,
    // Warm-season roots tolerate soil well above 32 °C; growth is limited from about 38 °C.
    hotSoilFromC: 38,
    airCurve: [
      [0, 0],
      [2, 40],
      [5, 45],
      [10, 55],
      [15, 70],
      [20, 85],
      [24, 100],
      [35, 100],
      [38, 55],
      [40, 40],
      [45, 0],
    ],
    // Dormant below ~10 °C soil (warm-season turf breaks dormancy at 10–18 °C soil).
    soilCurve: [
      [0, 10],
      [1, 40],
      [10, 55],
      [16, 85],
      [18, 100],
      [32, 100],
      [38, 70],
      [42, 40],
    ],
  },
};
