/**
 * The forecast unit as the daemon builds it: stationUnits() from a configuration (the lawn memory's
 * quiet hours and the modelled module's carrier as src/daemon.ts wires them), the forecast taken out.
 */
import type { Logger } from 'pino';
import { buildStationUnits } from '../../src/daemon.js';
import { ForecastUnit } from '../../src/forecast/forecastUnit.js';
import type { UnitBuildDeps } from '../../src/station/unitBuilder.js';
import type { StationUnit } from '../../src/station/unit.js';
import type { Database } from '../../src/store/database.js';
import { HolidayCalendar } from '../../src/lawn/holidays.js';
import type { Clock } from '../../src/util/clock.js';
import { silentLogger } from '../helpers/mqttHarness.js';

export function forecastUnitOf(
  config: UnitBuildDeps['config'],
  store: Database,
  clock: Clock,
  logger: Logger = silentLogger,
  unreadEnvironment: readonly string[] = [],
): ForecastUnit {
  return forecastOf(buildStationUnits({ config, logger, clock, store, readings: () => 'not_running', unreadEnvironment }));
}

/** forecastUnitOf, with the lawn memory's holiday calendar started as the daemon starts it (its first unit). */
export async function forecastUnitWithHolidays(config: UnitBuildDeps['config'], store: Database, clock: Clock): Promise<ForecastUnit> {
  const units = buildStationUnits({ config, logger: silentLogger, clock, store, readings: () => 'not_running' });
  const calendar = units.find((candidate): candidate is HolidayCalendar => candidate instanceof HolidayCalendar);
  if (!calendar) throw new Error('stationUnits() built no holiday calendar (lawnMemory.holidayCountry unset?)');
  await calendar.start();
  return forecastOf(units);
}

function forecastOf(units: readonly StationUnit[]): ForecastUnit {
  const unit = units.find((candidate): candidate is ForecastUnit => candidate instanceof ForecastUnit);
  if (!unit) throw new Error('stationUnits() built no forecast unit');
  return unit;
}
