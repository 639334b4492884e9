/** Public surface of the pure calculation core. */
export type * from './types.js';
export { FIELD_SPECS, FIELD_NAMES, REQUIRED_FIELDS } from './fields.js';
export type { FieldName, FieldSpec, CalculationInput } from './fields.js';
