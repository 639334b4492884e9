/**
 * Public holidays for the quiet hours (lawnMemory.holidayCountry / holidayRegion), from the
 * date-holidays library (https://github.com/commenthol/date-holidays; rules from public sources, no
 * network). The library and its rules for every country add ~22 MB to the daemon's RSS, so it is imported only
 * when a country is configured. At start the dates of the configured years are computed once and
 * handed to the pure quiet hours as data: local date "YYYY-MM-DD" → English name (and German name, for
 * the German reason). A holiday is the
 * whole calendar day in the configured time zone (lawnMemory's `timezone`), as the country observes it.
 */
import type { StationUnit } from '../station/unit.js';
import { ConfigError } from '../config/load.js';

export interface HolidaySettings {
  /** ISO 3166-1 alpha-2 code, e.g. "DE". */
  country: string;
  /** State/region code as date-holidays spells it (e.g. "BY"); "" for national holidays only. */
  region: string;
}

/** Years computed at start, after the current one (a daemon is restarted long before they run out). */
export const HOLIDAY_YEARS_AHEAD = 10;
const CODES_HELP =
  'the codes date-holidays knows are listed at https://github.com/commenthol/date-holidays#supported-countries-states-regions';

type HolidaysLibrary = typeof import('date-holidays').default;

/** Why the codes are not ones the library knows (one line naming the setting), or undefined. */
function codeProblem(Holidays: HolidaysLibrary, settings: HolidaySettings): string | undefined {
  const library = new Holidays();
  if (!Object.hasOwn(library.getCountries('en'), settings.country)) {
    return `"lawnMemory.holidayCountry" = "${settings.country}" is not a country with public holidays in date-holidays: use an ISO 3166-1 code such as DE, AT, CH, FR, GB or US; ${CODES_HELP}`;
  }
  if (settings.region === '') return undefined;
  const states = library.getStates(settings.country, 'en') ?? {};
  if (Object.hasOwn(states, settings.region)) return undefined;
  const known = Object.entries(states)
    .map(([code, name]) => `${code} (${name})`)
    .join(', ');
  return known === ''
    ? `"lawnMemory.holidayRegion" = "${settings.region}": ${settings.country} has no regions with their own holidays; leave it empty`
    : `"lawnMemory.holidayRegion" = "${settings.region}" is not a region of ${settings.country}: use one of ${known}; or leave it empty for national holidays`;
}

/** The public holidays of `fromYear`…`toYear`: local date → name in `lang` (two on one day joined). Throws ConfigError on unknown codes. */
export async function publicHolidays(
  settings: HolidaySettings,
  fromYear: number,
  toYear: number,
  lang: 'en' | 'de' = 'en',
): Promise<Map<string, string>> {
  const { default: Holidays } = await import('date-holidays');
  const problem = codeProblem(Holidays, settings);
  if (problem) throw new ConfigError([problem]);
  const calendar =
    settings.region === ''
      ? new Holidays(settings.country, { languages: [lang] })
      : new Holidays(settings.country, settings.region, { languages: [lang] });
  const days = new Map<string, string>();
  for (let year = fromYear; year <= toYear; year++) {
    // Bank holidays, school holidays and observances are not days of rest that noise rules protect.
    for (const holiday of calendar.getHolidays(year, lang)) {
      if (holiday.type !== 'public') continue;
      const day = holiday.date.slice(0, 10);
      const before = days.get(day);
      days.set(day, before === undefined ? holiday.name : `${before} / ${holiday.name}`);
    }
  }
  return days;
}

/**
 * Fills `days` and `daysDe` (the maps the quiet hours of the lawn memory's hold and of the forecast's
 * windows read) when the daemon starts; a unit so that start can wait for it.
 */
export class HolidayCalendar implements StationUnit {
  readonly name = 'holidays';
  readonly days = new Map<string, string>();
  readonly daysDe = new Map<string, string>();
  readonly #settings: HolidaySettings;
  readonly #now: () => number;

  constructor(settings: HolidaySettings, now: () => number) {
    this.#settings = settings;
    this.#now = now;
  }

  async start(): Promise<void> {
    const year = new Date(this.#now()).getUTCFullYear();
    for (const [day, name] of await publicHolidays(this.#settings, year - 1, year + HOLIDAY_YEARS_AHEAD)) this.days.set(day, name);
    for (const [day, name] of await publicHolidays(this.#settings, year - 1, year + HOLIDAY_YEARS_AHEAD, 'de')) this.daysDe.set(day, name);
  }
}
