/**
 * The 17 input fields of the interface spec, in the order of docs/api.md's examples, with
 * their units and valid ranges. Order matters: available_fields and
 * missing_fields are listed in this order.
 */
export const FIELD_SPECS = [
  { name: 'temperature', unit: '°C', min: -60, max: 60, required: true },
  { name: 'precipitation_rate', unit: 'mm/h', min: 0, max: 500, required: true },
  { name: 'humidity', unit: '%', min: 0, max: 100, required: false },
  { name: 'wind_speed', unit: 'km/h', min: 0, max: 300, required: false },
  { name: 'wind_gusts', unit: 'km/h', min: 0, max: 400, required: false },
  { name: 'dew_point', unit: '°C', min: -60, max: 60, required: false },
  { name: 'solar', unit: 'W/m2', min: 0, max: 2000, required: false },
  { name: 'soil_temperature', unit: '°C', min: -30, max: 70, required: false },
  { name: 'soil_moisture', unit: '%', min: 0, max: 100, required: false },
  { name: 'rain_1h', unit: 'mm', min: 0, max: 500, required: false },
  { name: 'rain_12h', unit: 'mm', min: 0, max: 2000, required: false },
  { name: 'rain_24h', unit: 'mm', min: 0, max: 2000, required: false },
  { name: 'rain_14d', unit: 'mm', min: 0, max: 5000, required: false },
  { name: 'minutes_since_rain', unit: 'min', min: 0, max: 99999, required: false },
  { name: 'min_temp_3h', unit: '°C', min: -60, max: 60, required: false },
  { name: 'min_temp_3d', unit: '°C', min: -60, max: 60, required: false },
  { name: 'min_temp_14d', unit: '°C', min: -60, max: 60, required: false },
] as const;

export type FieldName = (typeof FIELD_SPECS)[number]['name'];
export type FieldSpec = (typeof FIELD_SPECS)[number];

export const FIELD_NAMES: readonly FieldName[] = FIELD_SPECS.map((spec) => spec.name);
export const REQUIRED_FIELDS: readonly FieldName[] = FIELD_SPECS.filter((spec) => spec.required).map((spec) => spec.name);

/** Assembled, valid calculation input as the MQTT side produces it. */
export type CalculationInput = Partial<Record<FieldName, number>>;
