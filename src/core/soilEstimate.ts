/**
 * A soil moisture the caller *estimated* (the lawn memory's soil water bucket, docs/model.md "Soil
 * moisture from the bucket"), as opposed to one a sensor measured. The caller says so in the context
 * (`estimatedFields: ['soil_moisture']`); the HTTP API never does, so a request body is rated exactly
 * as docs/api.md ("POST /v1/calculate") describes.
 *
 * An estimated value is not a measurement: it is taken out of the parsed input (so available_fields,
 * missing_fields, data_quality and every check that rates a *measured* soil moisture see a station
 * without a sensor) and used only where the model already estimates the soil: the rain check's soil
 * load (in place of the rain-sum estimate) and the dry-spell rule (D1). Pure.
 */
import { fieldCapacityPct, LOAD_BEARING_DE, SOIL_TYPE_DE } from './soil.js';
import { trafficClass, trafficScore } from './softSoil.js';
import { formatNumberDe } from './format.js';
import { isSoilDrought, soilProfile } from './lawn/soilBucket.js';
import { parseFieldValue } from './parse.js';
import { emphasis } from './reasonText.js';
import type { FieldName } from './fields.js';
import type { LawnProfile, RawInput } from './types.js';

/** The one field the core accepts as an estimate. */
export const ESTIMABLE_FIELD = 'soil_moisture' satisfies FieldName;
/** `soil_load_source` of the rain check when the soil load comes from the estimate. */
export const SOIL_ESTIMATE_SOURCE = 'soil_water_balance';

export interface SoilEstimate {
  /** Volumetric water content, % (the `soil_moisture` scale: θ with θ_FC of the lawn's profile). */
  pct: number;
  /** The root zone has used up its readily available water (FAO-56: Ks < 1). */
  drought: boolean;
}

function isEstimated(context: unknown): boolean {
  if (typeof context !== 'object' || context === null) return false;
  const fields = (context as { estimatedFields?: unknown }).estimatedFields;
  return Array.isArray(fields) && fields.includes(ESTIMABLE_FIELD);
}

/**
 * The input without an estimated soil moisture, and the estimate's value (valid range only).
 * Never throws; without the flag the input is returned as it is.
 */
export function splitSoilEstimate(input: RawInput, context: unknown): { input: RawInput; pct: number | undefined } {
  if (!isEstimated(context) || typeof input !== 'object' || input === null || !Object.hasOwn(input, ESTIMABLE_FIELD))
    return { input, pct: undefined };
  const { [ESTIMABLE_FIELD]: raw, ...rest } = input;
  return { input: rest, pct: parseFieldValue(ESTIMABLE_FIELD, raw) };
}

/**
 * The estimate with its drought signal. The bucket's wilting point and depletion fraction p are the
 * profile's (src/core/lawn/soilBucket.ts); θ is read back on the bucket's scale, where a configured
 * field capacity above saturation was clamped.
 */
export function soilEstimateFor(pct: number, lawn: Pick<LawnProfile, 'soilType' | 'turfType' | 'fieldCapacityPercent'>): SoilEstimate {
  const profile = soilProfile(lawn.soilType, lawn.turfType, lawn.fieldCapacityPercent);
  const theta = (pct * profile.fieldCapacityPct) / fieldCapacityPct(lawn);
  return { pct, drought: isSoilDrought(theta, profile) };
}

/** The rain check's soil load from the estimate: the wetness curve of a measured value, reason marked as estimated. */
export function estimatedSoilLoad(estimate: SoilEstimate, lawn: LawnProfile): { score: number; reason: string | null } {
  const score = trafficScore(estimate.pct, lawn);
  const bearing = trafficClass(estimate.pct, lawn, score);
  return {
    score,
    reason:
      score < 70
        ? `${emphasis(`Boden ${LOAD_BEARING_DE[bearing]}`)} (geschätzt: ${formatNumberDe(estimate.pct)} % Bodenfeuchte nach Wasserbilanz, ${SOIL_TYPE_DE[lawn.soilType]}) – Gefahr von Bodenverdichtung und Fahrspuren.`
        : null,
  };
}
