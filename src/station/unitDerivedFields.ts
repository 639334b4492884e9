/**
 * Spec input fields a station unit added to the calculation input (e.g. the lawn memory's estimated
 * `soil_moisture`): not a station's measurement. The state lists them in `derived_fields` next to the
 * history's, and the core is told they are estimates (CalculationContext.estimatedFields), so it rates
 * them as such; the HTTP API, which has no units, never does.
 */
import { FIELD_NAMES, type CalculationInput, type FieldName } from '../core/index.js';

export function fieldsAddedByUnits(assembled: CalculationInput, extended: CalculationInput): FieldName[] {
  return FIELD_NAMES.filter((field) => assembled[field] === undefined && extended[field] !== undefined);
}
