/**
 * Builds the forecast unit from the configuration and exposes it to HTTP,
 * so the composition root (src/daemon.ts) needs only two lines.
 */
import type { Logger } from 'pino';
import { calculationContext } from '../config/calculationContext.js';
import type { AppConfig } from '../config/schema.js';
import type { ForecastSource } from '../http/forecastRoute.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../util/clock.js';
import { holidayCalendar, quietHoursSettings } from '../lawn/buildLawnUnit.js';
import { ForecastUnit } from './forecastUnit.js';

export interface ForecastWiring {
  config: AppConfig;
  database: () => Database;
  logger: Logger;
  clock: Clock;
  version: string;
}

export function createForecastUnit(wiring: ForecastWiring): ForecastUnit {
  const { config } = wiring;
  return new ForecastUnit({
    stations: config.stations,
    settings: config.forecast,
    database: wiring.database,
    logger: wiring.logger,
    now: () => wiring.clock.now(),
    contextFor: (station, nowMs) => calculationContext(config, nowMs, { lawn: station.lawn }),
    // Windows honour the lawn memory's quiet hours (night ban, noise hours, Sundays, public holidays: the hold's calendar).
    ...(config.lawnMemory.enabled && { quietHours: quietHoursSettings(config, holidayCalendar(config, wiring.clock)) }),
    userAgent: `mowability/${wiring.version}`,
  });
}

/** GET /v1/stations/{id}/forecast's data source; `running()`: the MQTT side (which starts the unit) is up. */
export function forecastSource(unit: ForecastUnit, config: AppConfig, running: () => boolean): ForecastSource {
  return (stationId, nowMs) => {
    const station = config.stations.find((candidate) => candidate.id === stationId);
    if (!station) return 'unknown_station';
    if (!station.forecast) return 'not_configured';
    if (!running() || !unit.started) return 'unavailable';
    return unit.detail(stationId, nowMs) ?? 'not_configured';
  };
}
