/**
 * Builds the modelled-station unit from the configuration, so the composition root
 * (src/daemon.ts) needs one line. Its readings enter through the pipeline's `acceptReading`
 * (the same path as uploads); its forecast goes to the forecast unit.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { ForecastUnit } from '../forecast/forecastUnit.js';
import type { Clock } from '../util/clock.js';
import type { AcceptReadingFn } from './modelledRound.js';
import { ModelledStationUnit } from './modelledUnit.js';

export interface ModelledWiring {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  version: string;
  accept: AcceptReadingFn;
  forecast: Pick<ForecastUnit, 'supply'>;
}

export function createModelledUnit(wiring: ModelledWiring): ModelledStationUnit {
  const { forecast } = wiring.config;
  return new ModelledStationUnit({
    stations: wiring.config.stations,
    settings: { openMeteoUrl: forecast.openMeteoUrl, intervalMinutes: forecast.modelledIntervalMinutes, timeoutSeconds: forecast.timeoutSeconds, retries: forecast.retries },
    accept: wiring.accept,
    supplyForecast: (stationId, cached) => wiring.forecast.supply(stationId, cached),
    logger: wiring.logger,
    now: () => wiring.clock.now(),
    userAgent: `mowability/${wiring.version}`,
  });
}
