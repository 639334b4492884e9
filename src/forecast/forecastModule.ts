/**
 * The forecast as a station unit module (src/station/unit.ts, docs/units.md): its settings
 * `forecast.*` and its key `forecast` in the station objects (./forecastSettings.ts), the unit
 * (./forecastUnit.ts) with its state, hold, Home Assistant entities and counters, and its route
 * GET /v1/stations/{id}/forecast (./forecastRoute.ts, docs/api.md "Forecast"). It needs two things,
 * wired in the composition root (src/daemon.ts): the lawn memory's quiet hours (its windows honour
 * them) and the forecast carrier (a modelled station's or gap filling's request brings the station's
 * Open-Meteo forecast: no second request).
 */
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { LawnProfile } from '../core/types.js';
import type { ForecastCarrier, ForecastStore, WeekForecastSource } from '../store/forecastStore.js';
import { MODELLED_FORMAT } from '../ingest/types.js';
import type { StationUnit } from '../station/unit.js';
import { defineStationUnit, type UnitStation } from '../station/unitModule.js';
import { packageVersion } from '../util/packageVersion.js';
import type { ForecastSource } from './forecastReport.js';
import { forecastRoutes } from './forecastRoute.js';
import { FORECAST_STATION_KEY, type StationForecastConfig } from './forecastSettings.js';
import { FORECAST_SETTINGS, type ForecastSettings } from '../config/openMeteoSettings.js';
import { ForecastUnit, type ForecastStation } from './forecastUnit.js';

/** A station's `forecast` setting; a modelled station without one gets Open-Meteo's (its own request brings it). */
function forecastConfigOf(station: UnitStation<StationForecastConfig | undefined>): StationForecastConfig | undefined {
  return station.settings ?? (station.format === MODELLED_FORMAT ? { source: 'open-meteo' } : undefined);
}

/** GET /v1/stations/{id}/forecast's data source: 'unavailable' until the unit has started (it starts with the station side). */
export function forecastSource(
  unit: ForecastUnit,
  stations: ReadonlyArray<UnitStation<StationForecastConfig | undefined>>,
): ForecastSource {
  const configured = new Map(stations.map((station) => [station.id, forecastConfigOf(station) !== undefined]));
  return (stationId, nowMs) => {
    const has = configured.get(stationId);
    if (has === undefined) return 'unknown_station';
    if (!has) return 'not_configured';
    if (!unit.started) return 'unavailable';
    return unit.detail(stationId, nowMs) ?? 'not_configured';
  };
}

/** What the forecast module is wired with (src/daemon.ts). */
export interface ForecastNeeds {
  /** The quiet hours mowing honours (the lawn memory's); undefined while the lawn memory is off. */
  readonly quietHours: QuietHoursSettings | undefined;
  /** Open-Meteo requests of another module that bring a station's forecast along. */
  readonly carrier: ForecastCarrier;
  /** The forecast cache (the composition root's, on the daemon's database); none: no forecast unit (a pipeline in memory). */
  readonly store: ForecastStore | undefined;
}

/** What the forecast offers the modules after it: the whole forecast rated, for the week's plan (src/daemon.ts). */
export interface ForecastOffer {
  readonly week: WeekForecastSource;
}

export const forecastModule = defineStationUnit<
  ForecastSettings,
  StationForecastConfig | undefined,
  StationUnit[],
  ForecastNeeds,
  ForecastOffer
>({
  name: 'forecast',
  config: { settings: FORECAST_SETTINGS, station: FORECAST_STATION_KEY },
  // Every station: a modelled one has a forecast without the key, and the route tells an unknown station from one without it.
  everyStation: true,
  create: ({ settings, stations, log, clock, calculationContext }, { quietHours, carrier, store }) => {
    if (!store) return [];
    const unit: ForecastUnit = new ForecastUnit({
      stations: stations.flatMap((station): ForecastStation[] => {
        const config = forecastConfigOf(station);
        if (!config) return [];
        const carried = config.source === 'open-meteo' && carrier.carry(station.id, (forecast) => unit.supply(station.id, forecast));
        return [{ id: station.id, config, carried, ...(station.location && { location: station.location }) }];
      }),
      settings,
      store,
      logger: log,
      now: () => clock.now(),
      contextFor: (stationId, nowMs) => calculationContext(nowMs, stationId),
      // Windows honour the lawn memory's quiet hours (night ban, noise hours, Sundays, public holidays: the hold's calendar).
      ...(quietHours && { quietHours }),
      userAgent: `mowability/${packageVersion()}`,
    });
    unit.routes = forecastRoutes(forecastSource(unit, stations), clock);
    return [unit];
  },
  provides: (units) => {
    const unit = units.find((candidate): candidate is ForecastUnit => candidate instanceof ForecastUnit);
    return {
      week: {
        fetchedAtMs: (stationId: string) => unit?.fetchedAtMs(stationId),
        rate: (stationId: string, nowMs: number, lawn?: Partial<LawnProfile>) => unit?.rateWeek(stationId, nowMs, lawn),
      },
    };
  },
});
