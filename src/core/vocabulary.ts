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
/** How complete the calculation's inputs are (docs/model.md, "Data quality"). */
export const DATA_QUALITIES = ['full', 'partial', 'minimal'] as const;
/**
 * Every `data_quality` a station's state can carry: the calculation's level, or `modelled` for a
 * modelled station (its inputs come from a weather model). Home Assistant's Data quality entity is
 * an enum sensor with exactly these options: a state outside them is dropped there.
 */
export const STATE_DATA_QUALITIES = [...DATA_QUALITIES, 'modelled'] as const;
