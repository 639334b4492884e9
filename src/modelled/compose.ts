/**
 * Builds the modelled-station unit from the configuration, so the composition root
 * (src/daemon.ts) needs one line. Its readings enter through the pipeline's `acceptReading`
 * (the same path as uploads); its forecast goes to the forecast unit.
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { SupplyForecast } from '../store/forecastStore.js';
import type { Clock } from '../util/clock.js';
import type { AcceptReadingFn } from './modelledRound.js';
import { GapFillUnit } from './gapFill.js';
import { ModelledStationUnit, type ModelledSettings } from './modelledUnit.js';

export interface ModelledWiring {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  version: string;
  accept: AcceptReadingFn;
  /** The forecast unit (its supply()), passed in: a unit imports no other unit. */
  forecast: { supply: SupplyForecast };
}

function settingsOf(config: AppConfig): ModelledSettings {
  const { forecast } = config;
  return { openMeteoUrl: forecast.openMeteoUrl, intervalMinutes: forecast.modelledIntervalMinutes, timeoutSeconds: forecast.timeoutSeconds, retries: forecast.retries };
}

export function createModelledUnit(wiring: ModelledWiring): ModelledStationUnit {
  return new ModelledStationUnit({
    stations: wiring.config.stations,
    settings: settingsOf(wiring.config),
    accept: wiring.accept,
    supplyForecast: (stationId, cached) => wiring.forecast.supply(stationId, cached),
    logger: wiring.logger,
    now: () => wiring.clock.now(),
    userAgent: `mowability/${wiring.version}`,
  });
}

/**
 * Gap filling for real stations with `gapFill` (runs after the lawn memory: see ./gapFill.ts); the
 * model's rain enters through `accept`, a station's Open-Meteo forecast goes to the forecast unit.
 */
export function createGapFillUnit(wiring: ModelledWiring): GapFillUnit {
  return new GapFillUnit({
    stations: wiring.config.stations,
    settings: settingsOf(wiring.config),
    accept: wiring.accept,
    supplyForecast: (stationId, cached) => wiring.forecast.supply(stationId, cached),
    logger: wiring.logger,
    now: () => wiring.clock.now(),
    userAgent: `mowability/${wiring.version}`,
  });
}
