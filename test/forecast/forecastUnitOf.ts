/**
 * The forecast unit as the daemon builds it: stationUnits() from a configuration (the lawn memory's
 * quiet hours and the modelled module's carrier as src/daemon.ts wires them), the forecast taken out.
 */
import type { Logger } from 'pino';
import { buildStationUnits } from '../../src/daemon.js';
import { ForecastUnit } from '../../src/forecast/forecastUnit.js';
import type { UnitBuildDeps } from '../../src/station/unitBuilder.js';
import type { UnitStore } from '../../src/station/unit.js';
import type { Clock } from '../../src/util/clock.js';
import { silentLogger } from '../helpers/mqttHarness.js';

export function forecastUnitOf(
  config: UnitBuildDeps['config'],
  store: UnitStore,
  clock: Clock,
  logger: Logger = silentLogger,
): ForecastUnit {
  const units = buildStationUnits({ config, logger, clock, store, readings: () => 'not_running' });
  const unit = units.find((candidate): candidate is ForecastUnit => candidate instanceof ForecastUnit);
  if (!unit) throw new Error('stationUnits() built no forecast unit');
  return unit;
}
