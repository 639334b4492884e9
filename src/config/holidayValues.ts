/**
 * Convict formats of the public-holiday settings (lawnMemory.holidayCountry / holidayRegion). Only
 * the form is checked here: whether date-holidays knows the codes is checked when the daemon starts
 * (src/lawn/holidays.ts), because loading the library costs memory that only a configured install pays.
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
