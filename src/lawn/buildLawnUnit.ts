/** Builds the lawn memory unit from the configuration (the composition root calls this). */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import { calculationContext } from '../config/calculationContext.js';
import { parseNoiseHours, type QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { LawnProfile } from '../core/types.js';
import type { StationUnit } from '../station/unit.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../util/clock.js';
import { HolidayCalendar } from './holidays.js';
import { LawnMemoryUnit } from './lawnUnit.js';
import { MowerStateSources } from './mowerStateSource.js';

const DEFAULT_PROFILE: LawnProfile = { soilType: 'loam', mowerClass: 'robot', turfType: 'cool_season' };

type LawnConfig = Pick<AppConfig, 'lawnMemory' | 'mqtt' | 'stations' | 'timezone' | 'hemisphere' | 'lawn'>;

type HolidayConfig = Pick<AppConfig, 'lawnMemory'>;
/** One calendar per configuration: the lawn memory's hold and the forecast's windows read the same dates. */
const calendars = new WeakMap<HolidayConfig, HolidayCalendar>();

/**
 * The configuration's public-holiday calendar (undefined without `lawnMemory.holidayCountry`): made
 * once per configuration object, its dates filled when the unit starts (lawnMemoryUnits lists it).
 */
export function holidayCalendar(config: HolidayConfig, clock: Clock): HolidayCalendar | undefined {
  const settings = config.lawnMemory;
  if (settings.holidayCountry === '') return undefined;
  let calendar = calendars.get(config);
  if (!calendar) {
    calendar = new HolidayCalendar({ country: settings.holidayCountry, region: settings.holidayRegion }, () => clock.now());
    calendars.set(config, calendar);
  }
  return calendar;
}

/** The quiet hours of the configuration (the lawn memory's `mowable` hold, the forecast's windows). */
export function quietHoursSettings(config: Pick<AppConfig, 'lawnMemory' | 'timezone' | 'hemisphere' | 'lawn'>, holidays?: HolidayCalendar): QuietHoursSettings {
  const settings = config.lawnMemory;
  return {
    night: settings.nightBan,
    marginMinutes: settings.nightMarginMinutes,
    noise: parseNoiseHours(settings.noiseHours),
    sundays: settings.quietSundays,
    timeZone: calculationContext(config, 0).timeZone,
    ...(holidays && { holidays: holidays.days, holidayNamesDe: holidays.daysDe }),
  };
}

/** The lawn memory unit (after the holiday calendar, before the mower state source, when configured), or none when lawnMemory.enabled is false. */
export function lawnMemoryUnits(config: LawnConfig, database: Database, logger: Logger, clock: Clock): StationUnit[] {
  const settings = config.lawnMemory;
  if (!settings.enabled) return [];
  const context = calculationContext(config, 0);
  const holidays = holidayCalendar(config, clock);
  const lawnUnit = new LawnMemoryUnit({
    stations: config.stations,
    database,
    logger,
    now: () => clock.now(),
    baseTopic: config.mqtt.baseTopic,
    lawn: { ...DEFAULT_PROFILE, ...context.lawn },
    quiet: quietHoursSettings(config, holidays),
    growth: { cutHeightCm: settings.cutHeightCm, growthFactor: settings.growthFactor },
    saveIntervalMs: settings.saveIntervalMinutes * 60_000,
    pollIntervalMs: settings.pollSeconds * 1000,
  });
  const mower = new MowerStateSources(config.stations, (station, atMs, source) => lawnUnit.recordCut(station, atMs, source), logger, () => clock.now());
  // The calendar first: its start fills the dates (or stops the daemon on unknown codes) before anything asks.
  return [...(holidays ? [holidays] : []), lawnUnit, ...(mower.configured ? [mower] : [])];
}
