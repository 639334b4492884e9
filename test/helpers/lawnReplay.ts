/**
 * The scaffolding of the lawn memory replays (test/lawn/*Replay, lawnCuts): a temp directory and a
 * lawn daemon per test, both gone after it, and the weathers several replays share. The daemon and
 * the replay itself are test/lawn/lawnHarness.ts's.
 */
import { afterEach, beforeEach } from 'vitest';
import { startLawnDaemon, type LawnDaemon, type Weather } from '../lawn/lawnHarness.js';
import type { FakeClock } from './mqttHarness.js';
import { mqttTempDir } from './mqttHarness.js';

/** A clear June day: 20 °C, 60 %, 10 km/h, 600 W/m². */
export const SUNNY: Weather = { temperature: 20, humidity: 60, wind_speed: 10, solar: 600 };

export interface LawnDaemonPerTest {
  /** The test's temp directory, removed after it. */
  readonly dir: string;
  /** The test's database file in it. */
  readonly dbPath: string;
  /** Starts the lawn daemon on the test's database; it is stopped after the test. */
  start(clock: FakeClock, options?: { pollIntervalMs?: number }): Promise<LawnDaemon>;
  /** Stops the running lawn daemon now (a restart in the middle of a test). */
  stop(): Promise<void>;
}

/** Registers the per-test hooks in the calling describe block. */
export function lawnDaemonPerTest(): LawnDaemonPerTest {
  let temp: ReturnType<typeof mqttTempDir> | undefined;
  let lawn: LawnDaemon | undefined;
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    await lawn?.stop();
    lawn = undefined;
    temp?.cleanup();
  });
  const current = () => {
    if (!temp) throw new Error('lawnDaemonPerTest: the temp directory exists only inside a test');
    return temp;
  };
  return {
    get dir() {
      return current().dir;
    },
    get dbPath() {
      return current().dbPath;
    },
    async start(clock, options) {
      lawn = await startLawnDaemon(this.dbPath, clock, options);
      return lawn;
    },
    async stop() {
      await lawn?.stop();
      lawn = undefined;
    },
  };
}
