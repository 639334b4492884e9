/**
 * Modelled stations and gap filling as one station unit module (src/station/unit.ts, docs/units.md):
 * both ask Open-Meteo with the forecast's connection settings (`forecast.*`, the fragment they share
 * with the forecast module), hand readings into the pipeline through the station side's acceptReading
 * (the same path as uploads; wired in src/daemon.ts), and carry a station's Open-Meteo forecast in the
 * same request: they provide the forecast carrier the forecast module, listed after this one, is wired with.
 * The module owns the station key `gapFill`; modelled stations are those of format "open-meteo".
 */
import { FORECAST_SETTINGS, type ForecastSettings } from '../config/openMeteoSettings.js';
import type { CachedForecast, ForecastCarrier } from '../store/forecastStore.js';
import { gapFillProblems } from '../ingest/modelledConfig.js';
import type { GapFillConfig } from '../ingest/types.js';
import type { AcceptReading } from '../station/facade.js';
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit, type UnitStation } from '../station/unitModule.js';
import { packageVersion } from '../util/packageVersion.js';
import { GapFillUnit } from './gapFill.js';
import { isModelled, ModelledStationUnit, type ModelledSettings, type ModelledStationConfig } from './modelledUnit.js';

function modelledSettings(forecast: ForecastSettings): ModelledSettings {
  return {
    openMeteoUrl: forecast.openMeteoUrl,
    intervalMinutes: forecast.modelledIntervalMinutes,
    timeoutSeconds: forecast.timeoutSeconds,
    retries: forecast.retries,
  };
}

function stationConfig(station: UnitStation<GapFillConfig | undefined>): ModelledStationConfig {
  return {
    id: station.id,
    ...(station.format && { format: station.format }),
    ...(station.location && { location: station.location }),
    ...(station.settings && { gapFill: station.settings }),
  };
}

/** The forecasts the module's requests bring, by station, for whoever asked to carry them (a unit without hooks: the service's value). */
class Carried implements ForecastCarrier, StationUnit {
  readonly name = 'forecast-carrier';
  readonly #deliveries = new Map<string, (forecast: CachedForecast) => Promise<void>>();
  readonly #stations: ReadonlyMap<string, ModelledStationConfig>;

  constructor(stations: readonly ModelledStationConfig[]) {
    this.#stations = new Map(stations.map((station) => [station.id, station]));
  }

  carry(stationId: string, deliver: (forecast: CachedForecast) => Promise<void>): boolean {
    const station = this.#stations.get(stationId);
    // A modelled station's request, or a station's gap filling: one request per round serves both.
    if (!station?.location || (!isModelled(station) && station.gapFill === undefined)) return false;
    this.#deliveries.set(stationId, deliver);
    return true;
  }

  carries(stationId: string): boolean {
    return this.#deliveries.has(stationId);
  }

  async supply(stationId: string, forecast: CachedForecast): Promise<void> {
    await this.#deliveries.get(stationId)?.(forecast);
  }
}

/** Modelled stations (state `origin`, `modelled`) and gap filling (`estimated_fields`, `rain_source`), in that order. */
/** What the modelled module is wired with (src/daemon.ts): the station side's acceptReading; undefined when built without one. */
export interface ModelledNeeds {
  readonly readings: AcceptReading | undefined;
}

/** What it offers the modules after it. */
export interface ModelledOffer {
  readonly carrier: ForecastCarrier;
}

export const modelledModule = defineStationUnit<
  ForecastSettings,
  GapFillConfig | undefined,
  readonly [ModelledStationUnit, GapFillUnit, Carried],
  ModelledNeeds,
  ModelledOffer
>({
  name: 'modelled',
  config: {
    settings: FORECAST_SETTINGS,
    station: { key: 'gapFill', problems: (value, problem, station) => gapFillProblems(value, station.location, problem) },
  },
  // Every station: a modelled one is known by its format, a gap-filled one by its key.
  everyStation: true,
  create: ({ settings, stations, log, clock, calculationContext }, { readings }) => {
    const configs = stations.map(stationConfig);
    const carried = new Carried(configs);
    const options = {
      stations: configs,
      settings: modelledSettings(settings),
      supplyForecast: (stationId: string, forecast: CachedForecast) => carried.supply(stationId, forecast),
      logger: log,
      now: () => clock.now(),
      userAgent: `mowability/${packageVersion()}`,
      timeZone: calculationContext(0).timeZone,
    };
    const needsReadings = configs.some((station) => isModelled(station) || station.gapFill !== undefined);
    if (needsReadings && readings === undefined)
      throw new Error(
        'station unit "modelled" hands in readings (a modelled or gap-filled station is configured) but was built without the station side\'s acceptReading: wire it with `readings` (src/daemon.ts)',
      );
    const accept: AcceptReading = readings ?? (() => 'not_running' as const);
    return [
      new ModelledStationUnit({ ...options, accept }),
      new GapFillUnit({ ...options, accept, carriesForecast: (stationId) => carried.carries(stationId) }),
      carried,
    ] as const;
  },
  provides: ([, , carried]) => ({ carrier: { carry: (stationId, deliver) => carried.carry(stationId, deliver) } }),
});
