/**
 * The irrigation unit's input field beyond the interface spec (documented extension, model 1.1,
 * docs/model.md "New input: minutes_since_irrigation"): how long ago a sprinkler run ended.
 * src/units/irrigationSource.ts derives it from MQTT; any HTTP caller may send it.
 */
export const IRRIGATION_FIELD_SPECS = [{ name: 'minutes_since_irrigation', unit: 'min', min: 0, max: 99999 }] as const;
