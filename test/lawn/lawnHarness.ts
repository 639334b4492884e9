/** Builds the lawn memory unit on a test database and replays weather through a running MQTT daemon. */
import type { Reading, StationConfig } from '../../src/ingest/types.js';
import type { LawnMemoryUnit } from '../../src/lawn/lawnUnit.js';
import type { StationStatePayload } from '../../src/station/statePayload.js';
import { Database } from '../../src/store/database.js';
import { testLawnUnit } from '../helpers/lawnUnit.js';
import { GARDEN } from '../helpers/statusPage.js';
import { FakeClock, silentLogger, startMqttDaemon, testMqttConfig, type RunningDaemon } from '../helpers/mqttHarness.js';

/** The status page tests' garden with a solar sensor and a location (sunrise and sunset). */
export const garden: StationConfig = {
  ...GARDEN,
  fields: { ...GARDEN.fields, solar: 'solar' },
  location: { latitude: 52.52, longitude: 13.405 },
};

export interface Weather {
  temperature: number;
  humidity: number;
  wind_speed: number;
  solar: number;
  /** Rain in the 10 minutes up to this reading, mm. */
  rainMm?: number;
  /** A soil-moisture sensor's reading, %. */
  soil_moisture?: number;
}

export interface LawnDaemon {
  daemon: RunningDaemon;
  unit: LawnMemoryUnit;
  stop(): Promise<void>;
  state(): (StationStatePayload & { lawn: Record<string, unknown> }) | undefined;
}

export async function startLawnDaemon(dbPath: string, clock: FakeClock, options: { pollIntervalMs?: number } = {}): Promise<LawnDaemon> {
  const config = testMqttConfig({ stations: [garden], station: { mowableOnDelayMinutes: 0 } });
  // The unit's own connection, as the composition root gives it the daemon's (a second one is what the CLI is).
  const database = await Database.open(dbPath);
  const unit = testLawnUnit({ stations: [garden], database, now: () => clock.now(), ...options });
  const daemon = await startMqttDaemon(dbPath, config, clock, silentLogger, [unit]);
  return {
    daemon,
    unit,
    async stop() {
      await daemon.stop();
      await database.close();
    },
    state: () => daemon.service.stationState('garden') as ReturnType<LawnDaemon['state']>,
  };
}

function reading(weather: Weather, atMs: number): Reading {
  const rainMm = weather.rainMm ?? 0;
  const values = {
    temperature: weather.temperature,
    humidity: weather.humidity,
    wind_speed: weather.wind_speed,
    solar: weather.solar,
    precipitation_rate: rainMm * 6,
    ...(weather.soil_moisture === undefined ? {} : { soil_moisture: weather.soil_moisture }),
  };
  return { values, rainCounters: [], rainDeltaMm: rainMm, fingerprint: `${atMs}`, dropped: [] };
}

/**
 * One reading every 10 minutes from `fromIso` up to and including `toIso`, each at its own clock time;
 * `weatherAt` gives the weather of each reading.
 */
export function replay(
  lawn: Pick<LawnDaemon, 'daemon'>,
  clock: FakeClock,
  fromIso: string,
  toIso: string,
  weatherAt: (atMs: number) => Weather,
  stepMinutes = 10,
): void {
  for (let at = Date.parse(fromIso); at <= Date.parse(toIso); at += stepMinutes * 60_000) {
    clock.ms = at;
    const outcome = lawn.daemon.service.acceptReading('garden', reading(weatherAt(at), at), 'test');
    if (outcome !== 'accepted') throw new Error(`reading at ${new Date(at).toISOString()} was ${outcome}`);
  }
}
