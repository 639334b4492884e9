/**
 * Input fields beyond the interface spec (documented extensions), each list defined by the unit
 * that derives it: irrigation (./irrigation.ts) and lawn memory (./lawnFields.ts). They are parsed
 * and range-checked like the base input fields but never appear in available_fields or missing_fields,
 * so the answer docs/api.md describes stays exactly as it is.
 */
import { IRRIGATION_FIELD_SPECS } from './irrigation.js';
import { LAWN_FIELD_SPECS } from './lawnFields.js';

export const EXTENSION_FIELD_SPECS = [...IRRIGATION_FIELD_SPECS, ...LAWN_FIELD_SPECS] as const;
export type ExtensionFieldName = (typeof EXTENSION_FIELD_SPECS)[number]['name'];
export type ExtensionInput = Partial<Record<ExtensionFieldName, number>>;
