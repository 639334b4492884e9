import type { CalculationInput, FieldName } from './fields.js';
import { fieldMask, type FieldMask } from './parse.js';
import { WARNING_CAP } from './status.js';

/**
 * The inputs that say whether the blades can be wet: humidity (dew), a rain window and the time
 * since rain. A 0 mm/h rate alone does not: the rain may have stopped five minutes ago.
 */
export const WETNESS_EVIDENCE_FIELDS: readonly FieldName[] = ['humidity', 'rain_1h', 'rain_12h', 'rain_24h', 'minutes_since_rain'];

/** Index cap without any wetness evidence: WARNING at best (model 1.1, D7). */
export const NO_WETNESS_EVIDENCE_CAP = WARNING_CAP;

export const NO_WETNESS_EVIDENCE_REASON =
  'Keine Angaben zu Luftfeuchte, Regenfenstern oder letztem Regen – nasse Halme sind nicht auszuschließen; höchstens WARNING.';

/** True when nothing in the input tells whether the blades are dry. */
export function lacksWetnessEvidence(values: CalculationInput): boolean {
  return WETNESS_EVIDENCE_FIELDS.every((name) => values[name] === undefined);
}

const WETNESS_EVIDENCE_MASK = fieldMask(WETNESS_EVIDENCE_FIELDS);

/** lacksWetnessEvidence from the mask of valid fields (parseDenseInput's `mask`): one test instead of five lookups. */
export function lacksWetnessEvidenceIn(valid: FieldMask): boolean {
  return (valid & WETNESS_EVIDENCE_MASK) === 0;
}
