/**
 * The lawn memory's input fields beyond the interface spec (docs/model.md, "Lawn memory"):
 * derived on the station side by src/lawn/, accepted from any HTTP caller.
 */
export const LAWN_FIELD_SPECS = [
  { name: 'blade_drying_minutes', unit: 'min', min: 0, max: 99999 },
  { name: 'mow_need', unit: '%', min: 0, max: 100 },
  { name: 'wet_spell_hours', unit: 'h', min: 0, max: 9999 },
] as const;
