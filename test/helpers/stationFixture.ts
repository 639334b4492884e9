/**
 * The station tests' set-up: a temp dir per test, and what a test starts in it stopped after the
 * test, the last started first: the station side with the embedded broker (startMqttDaemon), the
 * sides on their own without MQTT, and recording mqtt.js clients.
 */
import type { Logger } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import type { StationUnit } from '../../src/station/unit.js';
import { Database } from '../../src/store/database.js';
import { startInOrder, type StartedComponents } from '../../src/util/lifecycle.js';
import {
  createSides,
  mqttTempDir,
  RecordingClient,
  silentLogger,
  startMqttDaemon,
  type FakeClock,
  type RunningDaemon,
  type TestSideConfig,
  type TestSides,
} from './mqttHarness.js';

export interface StationFixture {
  /** This test's temp dir and database path. */
  readonly temp: { dir: string; dbPath: string };
  /** The station side and the MQTT side on this test's database, as the daemon starts them. */
  daemon(config: TestSideConfig, clock: FakeClock, units?: readonly StationUnit[], logger?: Logger): Promise<RunningDaemon>;
  /** The sides built on this test's database (opened once per test), without the daemon's built-in units; start() starts them in the daemon's order. */
  sides(config: TestSideConfig, clock: FakeClock, units?: readonly StationUnit[], logger?: Logger): Promise<StartableSides>;
  /** A recording client on the broker at `port`, subscribed to `topics`. */
  observe(port: number, topics: string | string[]): Promise<RecordingClient>;
}

export type StartableSides = TestSides & { start(): Promise<void>; stop(): Promise<void> };

export function useStationFixture(): StationFixture {
  let temp: ReturnType<typeof mqttTempDir> | undefined;
  let database: Database | undefined;
  const steps: Array<() => Promise<void> | void> = [];
  beforeEach(() => {
    temp = mqttTempDir();
  });
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
    await database?.close();
    temp?.cleanup();
    database = temp = undefined;
  });
  const inTest = () => {
    if (!temp) throw new Error('useStationFixture: only inside a test');
    return temp;
  };
  return {
    get temp() {
      return inTest();
    },
    async daemon(config, clock, units = [], logger = silentLogger) {
      const daemon = await startMqttDaemon(inTest().dbPath, config, clock, logger, units);
      steps.push(() => daemon.stop());
      return daemon;
    },
    async sides(config, clock, units = [], logger = silentLogger) {
      database ??= await Database.open(inTest().dbPath);
      const sides = createSides({ config, database, logger, clock, units });
      let started: StartedComponents | undefined;
      const stop = async () => {
        const running = started;
        started = undefined;
        await running?.stop();
      };
      steps.push(stop);
      return {
        ...sides,
        async start() {
          started = await startInOrder(sides.components, logger);
        },
        stop,
      };
    },
    async observe(port, topics) {
      const client = await RecordingClient.connect(port);
      steps.push(() => client.close());
      await client.client.subscribeAsync(topics, { qos: 1 });
      return client;
    },
  };
}
