/**
 * Builds the forecast unit from the configuration, like the lawn memory's (src/lawn/buildLawnUnit.ts),
 * and its source for GET /v1/stations/{id}/forecast (docs/api.md, "Forecast").
 */
import type { Logger } from 'pino';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import type { QuietHoursSettings } from '../core/lawn/quietHours.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../util/clock.js';
import type { ForecastSource } from './forecastReport.js';
import { ForecastUnit } from './forecastUnit.js';

export interface ForecastWiring {
  config: AppConfig;
  database: Database;
  logger: Logger;
  clock: Clock;
  version: string;
  /** The lawn memory's quiet hours (src/lawn/buildLawnUnit.ts lawnQuietHours), passed in: a unit imports no other unit. */
  quietHours?: QuietHoursSettings | undefined;
}

export function createForecastUnit(wiring: ForecastWiring): ForecastUnit {
  const { config, quietHours } = wiring;
  return new ForecastUnit({
    stations: config.stations,
    settings: config.forecast,
    database: wiring.database,
    logger: wiring.logger,
    now: () => wiring.clock.now(),
    contextFor: (station, nowMs) => calculationContext(config, nowMs, { lawn: station.lawn }),
    // Windows honour the lawn memory's quiet hours (night ban, noise hours, Sundays, public holidays: the hold's calendar).
    ...(quietHours && { quietHours }),
    userAgent: `mowability/${wiring.version}`,
  });
}

/** GET /v1/stations/{id}/forecast's data source: 'unavailable' until the unit has started (it starts with the station side). */
export function forecastSource(unit: ForecastUnit, config: AppConfig): ForecastSource {
  return (stationId, nowMs) => {
    const station = config.stations.find((candidate) => candidate.id === stationId);
    if (!station) return 'unknown_station';
    if (!station.forecast) return 'not_configured';
    if (!unit.started) return 'unavailable';
    return unit.detail(stationId, nowMs) ?? 'not_configured';
  };
}
