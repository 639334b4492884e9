/**
 * The lawn memory's global settings (`lawnMemory.*`): water balances, growth, quiet hours. A convict
 * fragment the unit brings (./buildLawnUnit.ts); loadConfig merges it under `lawnMemory` with every
 * unit of stationUnits() (src/daemon.ts), so the keys, environment variables and flags are the ones
 * the base schema had.
 */
import { parseNoiseHours } from '../core/lawn/quietHours.js';
import { positiveNumber } from '../config/settingFormats.js';

/** `lawnMemory.*` as loaded. */
export interface LawnMemorySettings {
  readonly enabled: boolean;
  readonly nightBan: boolean;
  readonly nightBanZoneLocation: boolean;
  readonly nightMarginMinutes: number;
  readonly noiseHours: string;
  readonly quietSundays: boolean;
  readonly holidayCountry: string;
  readonly holidayRegion: string;
  readonly cutHeightCm: number;
  readonly growthFactor: number;
  readonly saveIntervalMinutes: number;
  readonly pollSeconds: number;
}

/*
 * The public-holiday codes: only their form is checked at load; whether date-holidays knows them is
 * checked when the daemon starts (./holidays.ts), because loading the library costs memory that only
 * a configured install pays.
 */

/** Convict format: empty (no holidays) or an ISO 3166-1 alpha-2 country code in capitals. */
export function holidayCountryFormat(value: unknown): void {
  if (typeof value !== 'string' || !/^([A-Z]{2})?$/.test(value)) {
    throw new Error('must be empty or a two-letter ISO 3166-1 country code in capitals, e.g. "DE"');
  }
}

/** Convict format: empty (the whole country) or a state/region code as date-holidays spells it, e.g. "BY". */
export function holidayRegionFormat(value: unknown): void {
  if (typeof value !== 'string' || !/^([A-Z0-9]{1,6})?$/.test(value)) {
    throw new Error('must be empty or a state/region code of capitals and digits, e.g. "BY" for Bavaria');
  }
}

/** What no single key can see: a region needs its country. */
export function lawnSettingsProblems(settings: Pick<LawnMemorySettings, 'holidayCountry' | 'holidayRegion'>): string[] {
  if (settings.holidayRegion === '' || settings.holidayCountry !== '') return [];
  return [`"lawnMemory.holidayRegion" = "${settings.holidayRegion}" needs "lawnMemory.holidayCountry" (e.g. "DE" for the region "BY")`];
}

function noiseHoursFormat(value: unknown): void {
  if (typeof value !== 'string') throw new Error('must be a string "HH:MM-HH:MM" or empty');
  parseNoiseHours(value);
}

export const lawnMemorySchema = {
  enabled: {
    doc: 'Keep lawn memory per station (blade water, soil water, growth since the last cut, quiet hours; docs/model.md "Lawn memory").',
    format: Boolean,
    default: true,
    env: 'MOWABILITY_LAWN_MEMORY_ENABLED',
    arg: 'lawn-memory-enabled',
  },
  nightBan: {
    doc: 'Quiet hours: hold "mowable" off from lawnMemory.nightMarginMinutes before sunset to after sunrise at the station\'s location (hedgehog protection); for a station without a location see lawnMemory.nightBanZoneLocation.',
    format: Boolean,
    default: true,
    env: 'MOWABILITY_LAWN_MEMORY_NIGHT_BAN',
    arg: 'lawn-memory-night-ban',
  },
  nightBanZoneLocation: {
    doc: "The night ban of a station without a location: true takes the sunset and sunrise at the configured time zone's reference point in the tz database (e.g. Berlin for Europe/Berlin; off by some tens of minutes in a wide zone: set the station's location for its own); false: such a station has no night ban.",
    format: Boolean,
    default: true,
    env: 'MOWABILITY_LAWN_MEMORY_NIGHT_BAN_ZONE_LOCATION',
    arg: 'lawn-memory-night-ban-zone-location',
  },
  nightMarginMinutes: {
    doc: 'Minutes before sunset the night ban starts, and after sunrise it ends.',
    format: 'nat',
    default: 30,
    env: 'MOWABILITY_LAWN_MEMORY_NIGHT_MARGIN_MINUTES',
    arg: 'lawn-memory-night-margin-minutes',
  },
  noiseHours: {
    doc: 'Quiet hours in the configured time zone as "HH:MM-HH:MM" (e.g. "20:00-07:00"), may wrap midnight; empty: none.',
    format: noiseHoursFormat,
    default: '',
    env: 'MOWABILITY_LAWN_MEMORY_NOISE_HOURS',
    arg: 'lawn-memory-noise-hours',
  },
  quietSundays: {
    doc: 'Quiet hours all Sunday (configured time zone).',
    format: Boolean,
    default: false,
    env: 'MOWABILITY_LAWN_MEMORY_QUIET_SUNDAYS',
    arg: 'lawn-memory-quiet-sundays',
  },
  holidayCountry: {
    doc: 'Quiet hours all day on this country\'s public holidays (ISO 3166-1 code, e.g. "DE"; dates from the date-holidays library, in the configured time zone); empty: none.',
    format: holidayCountryFormat,
    default: '',
    env: 'MOWABILITY_LAWN_MEMORY_HOLIDAY_COUNTRY',
    arg: 'lawn-memory-holiday-country',
  },
  holidayRegion: {
    doc: 'The state or region for regional public holidays (e.g. "BY" for Bavaria with holidayCountry "DE"); empty: national holidays only.',
    format: holidayRegionFormat,
    default: '',
    env: 'MOWABILITY_LAWN_MEMORY_HOLIDAY_REGION',
    arg: 'lawn-memory-holiday-region',
  },
  cutHeightCm: {
    doc: 'Height the lawn is cut to (cm); mow need reaches 100 when the grass has grown half of it (the one-third rule).',
    format: positiveNumber,
    default: 4,
    env: 'MOWABILITY_LAWN_MEMORY_CUT_HEIGHT_CM',
    arg: 'lawn-memory-cut-height-cm',
  },
  growthFactor: {
    doc: "The lawn's growth relative to an average fertilised lawn (0.04 cm per degree-day above 5 °C): 0.5 for a lean lawn, 1.5 for a well-fed one.",
    format: positiveNumber,
    default: 1,
    env: 'MOWABILITY_LAWN_MEMORY_GROWTH_FACTOR',
    arg: 'lawn-memory-growth-factor',
  },
  saveIntervalMinutes: {
    doc: 'Balances (blade and soil water, degree-days) are written to the database at most this often, and on stop; a cut is written at once.',
    format: 'positive-int',
    default: 30,
    env: 'MOWABILITY_LAWN_MEMORY_SAVE_INTERVAL_MINUTES',
    arg: 'lawn-memory-save-interval-minutes',
  },
  pollSeconds: {
    doc: 'How often the daemon looks for a cut recorded by "mowability mowed" (a cheap check of the database\'s change counter).',
    format: 'positive-int',
    default: 5,
    env: 'MOWABILITY_LAWN_MEMORY_POLL_SECONDS',
    arg: 'lawn-memory-poll-seconds',
  },
};
