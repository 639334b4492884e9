/**
 * The core's closed vocabularies, each listed once. The union types in ./types.ts are derived
 * from these tuples; the config schema, the station validation, the calculation, the response
 * schemas and the Home Assistant entities import the lists from here.
 */
export const SEASONS = ['spring', 'summer', 'autumn', 'winter'] as const;
export const HEMISPHERES = ['north', 'south'] as const;
export const SOIL_TYPES = ['sand', 'loam', 'clay'] as const;
export const MOWER_CLASSES = ['robot', 'walk', 'ride_on'] as const;
export const TURF_TYPES = ['cool_season', 'warm_season'] as const;
/** Every check, in the order the calculation runs them (and docs/api.md's `checks` object lists them). */
export const CHECK_NAMES = ['temperature', 'soiltemp', 'rain', 'wind', 'humidity'] as const;
export const STATUSES = ['OK', 'WARNING', 'BLOCK'] as const;
