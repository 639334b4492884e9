/**
 * The whole daemon (src/daemon.ts) in this process against a fake Open-Meteo on loopback, as a
 * user runs it: a stations file beside the database, HTTP and the embedded broker on ephemeral
 * loopback ports, no retries of the provider.
 */
import { loadConfig } from '../../src/config/load.js';
import type { AppConfig } from '../../src/config/schema.js';
import { startDaemon, stationUnitConfigs, type RunningDaemon } from '../../src/daemon.js';
import type { FakeClock } from './mqttHarness.js';
import { silentLogger } from './mqttHarness.js';
import { writeStationsConfig } from './uploadStations.js';

export interface OpenMeteoDaemonOptions {
  /** Where the database and the stations file go. */
  temp: { dir: string; dbPath: string };
  stations: readonly object[];
  openMeteoUrl: string;
  /** More settings as environment variables (they win over the defaults here). */
  env?: Record<string, string>;
}

/** The configuration; the recompute is debounced by 200 ms, so a backfill's burst of hours is one recompute as in production. */
export function openMeteoDaemonConfig(options: OpenMeteoDaemonOptions): AppConfig {
  return loadConfig({
    env: {
      MOWABILITY_CONFIG: writeStationsConfig(options.temp.dir, options.stations),
      MOWABILITY_DB_PATH: options.temp.dbPath,
      MOWABILITY_HTTP_HOST: '127.0.0.1',
      MOWABILITY_HTTP_PORT: '0',
      MOWABILITY_BROKER_PORT: '0',
      MOWABILITY_FORECAST_OPEN_METEO_URL: options.openMeteoUrl,
      MOWABILITY_FORECAST_RETRIES: '0',
      MOWABILITY_STATION_RECOMPUTE_DEBOUNCE_MS: '200',
      ...options.env,
    },
    units: stationUnitConfigs(),
  });
}

export async function startOpenMeteoDaemon(options: OpenMeteoDaemonOptions & { clock: FakeClock }): Promise<RunningDaemon> {
  return startDaemon({ config: openMeteoDaemonConfig(options), logger: silentLogger, clock: options.clock });
}
