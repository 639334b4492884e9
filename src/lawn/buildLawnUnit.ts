/**
 * The lawn memory as a station unit module (src/station/unit.ts): one line in stationUnits()
 * (src/daemon.ts) plugs it in with everything it owns — its settings (`lawnMemory.*`,
 * ./lawnSettings.ts), its key in the station objects (`mower`, ./mowerConfig.ts), its tables (through
 * the store the composition root wires in, src/store/lawnMemoryStore.ts), its state, hold, entities and
 * counters. It serves every station; the `mower` key only adds a cut source. Built as up to three units in this order: the holiday calendar
 * (its start fills the dates before anything asks), the memory, the mower state source.
 */
import { parseNoiseHours, type QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { LawnProfile } from '../core/types.js';
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit } from '../station/unitModule.js';
import { unitSettingsOf } from '../station/unitBuilder.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from 'pino';
import type { StationLocation } from '../ingest/types.js';
import type { LawnMemoryStore } from '../store/lawnMemoryStore.js';
import { HolidayCalendar } from './holidays.js';
import { lawnMemorySchema, lawnSettingsProblems, type LawnMemorySettings } from './lawnSettings.js';
import { LawnMemoryUnit, type LawnGrowth } from './lawnUnit.js';
import type { StationLawns } from './lawnsModule.js';
import { MOWER_STATION_KEY, mowerRunOf, type MowerConfig } from './mowerConfig.js';
import { MowerStateSources } from './mowerStateSource.js';
import { nightBanSource, zoneLocation } from './zoneLocation.js';

const DEFAULT_PROFILE: LawnProfile = { soilType: 'loam', mowerClass: 'robot', turfType: 'cool_season' };

/**
 * The public-holiday calendar of these settings (undefined without `lawnMemory.holidayCountry`),
 * its dates filled when the lawn memory's units start (it is the first of them). Made once, in
 * `create`; `provides` hands the same one to the forecast's windows, so both read the same dates.
 */
function holidayCalendar(settings: LawnMemorySettings, clock: Clock): HolidayCalendar | undefined {
  if (settings.holidayCountry === '') return undefined;
  return new HolidayCalendar({ country: settings.holidayCountry, region: settings.holidayRegion }, () => clock.now());
}

/** The quiet hours of the settings in the configured time zone (the lawn memory's `mowable` hold, the forecast's windows). */
export function quietHoursSettings(settings: LawnMemorySettings, timeZone: string, holidays?: HolidayCalendar): QuietHoursSettings {
  const zone = settings.nightBan && settings.nightBanZoneLocation ? zoneLocation(timeZone) : undefined;
  return {
    night: settings.nightBan,
    marginMinutes: settings.nightMarginMinutes,
    noise: parseNoiseHours(settings.noiseHours),
    sundays: settings.quietSundays,
    timeZone,
    ...(holidays && { holidays: holidays.days, holidayNamesDe: holidays.daysDe }),
    ...(zone && { zoneLocation: zone }),
  };
}

/** What the lawn memory offers the modules after it (src/daemon.ts wires it into the forecast). */
export interface LawnMemoryOffer {
  /** The quiet hours mowing honours, with the holiday calendar it starts; undefined when it is off. */
  readonly quietHours: QuietHoursSettings | undefined;
  /** Records a cut (a mower's completed run): false when it is not newer or the lawn memory is off. */
  readonly recordCut: RecordCut;
  /** A lawn's last cut and growth since (the planner's need); undefined when the lawn memory is off. */
  readonly lawnGrowth: (stationId: string, lawnId: string) => LawnGrowth | undefined;
  /** The growth settings every lawn's need starts from (`lawnMemory.cutHeightCm`, `growthFactor`). */
  readonly growthSettings: { readonly cutHeightCm: number; readonly growthFactor: number };
  /** A station's `mower.control` run length and gap as configured (the plan's run shape); undefined where it sets none. */
  readonly mowerRun: (stationId: string) => { readonly runMinutes?: number; readonly minGapHours?: number } | undefined;
}

/** Records a cut in the lawn memory (its last cut and growth reset); `lawnId` a further lawn of the station (its own cut history). */
export type RecordCut = (stationId: string, atMs: number, source: string, lawnId?: string) => boolean;

/** What the lawn memory is wired with (src/daemon.ts): its store, and every station's lawns (without them each station has its one lawn). */
export interface LawnMemoryNeeds {
  /** Its balances and cuts; none: no lawn memory (a pipeline in memory). */
  readonly store: LawnMemoryStore | undefined;
  readonly lawns?: StationLawns;
}

/** The station unit module: settings, the `mower` key, and the units built from them (none when `lawnMemory.enabled` is false or without a store). */
export const lawnMemoryUnit = defineStationUnit<
  LawnMemorySettings,
  MowerConfig | undefined,
  StationUnit[],
  LawnMemoryNeeds | undefined,
  LawnMemoryOffer
>({
  name: 'lawn',
  config: {
    settings: { key: 'lawnMemory', schema: lawnMemorySchema, problems: lawnSettingsProblems },
    station: MOWER_STATION_KEY,
  },
  everyStation: true,
  create: ({ settings, stations, log, clock, baseTopic, calculationContext }, needs) => {
    const store = needs?.store;
    if (!settings.enabled || !store) return [];
    const timeZone = calculationContext(0).timeZone;
    const holidays = holidayCalendar(settings, clock);
    logNightBan(log, settings, timeZone, stations);
    const lawnUnit = new LawnMemoryUnit({
      stations: stations.map(({ id, location }) => ({
        id,
        lawn: calculationContext(0, id).lawn,
        ...(location && { location }),
        ...(needs.lawns?.has(id) && { lawns: needs.lawns.get(id) }),
      })),
      store,
      logger: log,
      now: () => clock.now(),
      baseTopic,
      lawn: DEFAULT_PROFILE,
      quiet: quietHoursSettings(settings, timeZone, holidays),
      growth: { cutHeightCm: settings.cutHeightCm, growthFactor: settings.growthFactor },
      saveIntervalMs: settings.saveIntervalMinutes * 60_000,
      pollIntervalMs: settings.pollSeconds * 1000,
    });
    const mowers = stations.flatMap(({ id, settings }) => lawnMowers(id, settings, needs.lawns?.get(id)));
    const mower = new MowerStateSources(
      mowers,
      (station, atMs, source, lawnId) => lawnUnit.recordCut(station, atMs, source, lawnId),
      log,
      () => clock.now(),
    );
    return [...(holidays ? [holidays] : []), lawnUnit, ...(mower.configured ? [mower] : [])];
  },
  // The forecast's windows and the mower control honour the same quiet hours; the mower control's
  // completed runs record cuts here (both wired in src/daemon.ts).
  provides: (units, { settings, calculationContext, stations }) => {
    const memory = units.find((unit): unit is LawnMemoryUnit => unit instanceof LawnMemoryUnit);
    const holidays = units.find((unit): unit is HolidayCalendar => unit instanceof HolidayCalendar);
    const runs = new Map(stations.map((station) => [station.id, mowerRunOf(station.settings)]));
    return {
      growthSettings: { cutHeightCm: settings.cutHeightCm, growthFactor: settings.growthFactor },
      mowerRun: (stationId: string) => runs.get(stationId),
      quietHours: settings.enabled ? quietHoursSettings(settings, calculationContext(0).timeZone, holidays) : undefined,
      recordCut: (stationId: string, atMs: number, source: string, lawnId?: string) =>
        memory?.recordCut(stationId, atMs, source, lawnId) ?? false,
      lawnGrowth: (stationId: string, lawnId: string) => memory?.lawnGrowth(stationId, lawnId),
    };
  },
});

/**
 * The mower state sources of one station's lawns: the station's `mower` block is its first lawn's (else
 * the first lawn's own block), a further lawn's own block records that lawn's cuts.
 */
function lawnMowers(
  stationId: string,
  mower: MowerConfig | undefined,
  lawns: ReadonlyArray<{ readonly id: string; readonly mower?: MowerConfig }> | undefined,
): Array<{ id: string; mower: MowerConfig; lawnId?: string }> {
  const first = mower ?? lawns?.[0]?.mower;
  const further = (lawns ?? []).slice(1).flatMap((lawn) => (lawn.mower ? [{ id: stationId, mower: lawn.mower, lawnId: lawn.id }] : []));
  return [...(first ? [{ id: stationId, mower: first }] : []), ...further];
}

/** `lawnMemory.*` of a loaded configuration (its defaults when it was loaded without the unit). */
export function lawnMemorySettingsOf(config: object): LawnMemorySettings {
  return unitSettingsOf<LawnMemorySettings>(lawnMemoryUnit, config);
}

/** The quiet hours of a loaded configuration's `lawnMemory.*` (with a calendar of its own); undefined when it is off. */
export function lawnQuietHours(config: object, timeZone: string, clock: Clock): QuietHoursSettings | undefined {
  const settings = lawnMemorySettingsOf(config);
  return settings.enabled ? quietHoursSettings(settings, timeZone, holidayCalendar(settings, clock)) : undefined;
}

/** Says at start where each station's night ban takes its sun from, once per kind (a station without a location uses the time zone's, or has none). */
function logNightBan(
  log: Logger,
  settings: LawnMemorySettings,
  timeZone: string,
  stations: ReadonlyArray<{ id: string; location?: StationLocation | undefined }>,
): void {
  const options = { nightBan: settings.nightBan, zoneLocation: settings.nightBanZoneLocation, timeZone };
  const without = stations.filter((station) => station.location === undefined).map((station) => station.id);
  if (!settings.nightBan || without.length === 0) return;
  const source = nightBanSource(options, undefined);
  const details = { stations: without, timeZone, nightBanZoneLocation: settings.nightBanZoneLocation };
  if (source.startsWith('none')) log.warn(details, `night ban of stations without a location: ${source}`);
  else log.info(details, `night ban of stations without a location: ${source}; lawnMemory.nightBanZoneLocation false turns it off`);
}
