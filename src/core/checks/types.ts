import type { CalculationInput, FieldName } from '../fields.js';
import type { ExtensionInput } from '../extensionFields.js';
import type { DryingPotential } from '../physics.js';
import type { EffectiveRainWindows } from '../rainWindows.js';
import type { SoilEstimate } from '../soilEstimate.js';
import type { CheckName, DataConfidence, LawnProfile, Season, SkippedPart } from '../types.js';

/** What every check receives: valid values only, plus the resolved season and lawn profile. */
export interface CheckContext {
  values: CalculationInput;
  /** Documented extensions beyond the base input fields (minutes_since_irrigation); optional for tests. */
  extensions?: ExtensionInput;
  season: Season;
  /** The local hour (0–23) of the calculation in the context's time zone; absent in direct check tests (no night-frost rule then). */
  localHour?: number;
  lawn: LawnProfile;
  /** An estimated soil moisture (context `estimatedFields`); `values` then holds no soil_moisture. */
  soilEstimate?: SoilEstimate | undefined;
  /**
   * effectiveRainWindows(values) and dryingPotential(temperature ?? 15, humidity, solar, wind_speed)
   * when the caller computed them once for every check (calculate() does); undefined: each check
   * computes them from `values`.
   */
  rainWindows?: EffectiveRainWindows | null | undefined;
  drying?: DryingPotential | undefined;
}

/** The outcome of an executed check before the common shape (status, rounding) is applied. */
export interface CheckEvaluation {
  /** Raw score; the registry runner rounds it to an integer 0..100. */
  score: number;
  dataConfidence: DataConfidence;
  reasons: string[];
  skippedParts: Record<string, SkippedPart>;
  meta: Record<string, unknown>;
}

export interface CheckDefinition {
  name: CheckName;
  /** Weight in the weighted mean of the minimum model (renormalised over executed checks). */
  weight: number;
  /** The check is skipped when any of these is missing or invalid. */
  requiredFields: readonly FieldName[];
  /** English reason used when the check is skipped. */
  skippedReason: string;
  evaluate(context: CheckContext): CheckEvaluation;
}
