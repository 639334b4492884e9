/**
 * Input fields beyond the interface spec (documented extensions, model 1.1). They are parsed and
 * range-checked like the spec's fields but never appear in available_fields or missing_fields, so
 * the spec's response stays exactly as it is.
 */
export const EXTENSION_FIELD_SPECS = [
  { name: 'minutes_since_irrigation', unit: 'min', min: 0, max: 99999 },
  // Lawn memory (docs/model.md, "Lawn memory"): derived by the MQTT side, accepted from any caller.
  { name: 'blade_drying_minutes', unit: 'min', min: 0, max: 99999 },
  { name: 'mow_need', unit: '%', min: 0, max: 100 },
  { name: 'wet_spell_hours', unit: 'h', min: 0, max: 9999 },
] as const;
export type ExtensionFieldName = (typeof EXTENSION_FIELD_SPECS)[number]['name'];
export type ExtensionInput = Partial<Record<ExtensionFieldName, number>>;
