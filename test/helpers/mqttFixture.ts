/**
 * The MQTT tests' one daemon fixture (vitest `test.extend`): a temp database,
 * a fake clock, and `start()`/`connect()` that remember what they opened, so
 * every daemon and client is closed and the temp dir removed after each test,
 * whatever the test did. Replaces the copied beforeEach/afterEach blocks.
 */
import type { IClientOptions } from 'mqtt';
import type { Logger } from 'pino';
import { test as base } from 'vitest';
import type { MqttSideConfig } from '../../src/mqtt/settings.js';
import type { StationUnit } from '../../src/station/unit.js';
import { FakeClock, RecordingClient, mqttTempDir, startMqttDaemon, type RunningDaemon } from './mqttHarness.js';

/** Midsummer morning: the season and daylight checks are not in the way. */
export const FIXTURE_START_MS = Date.parse('2026-06-15T08:00:00Z');

export interface MqttDaemonFixture {
  readonly dir: string;
  readonly dbPath: string;
  readonly clock: FakeClock;
  /** Starts the station side on the fixture's database (again after a stop: a restart). */
  start(config: MqttSideConfig, options?: { logger?: Logger; units?: readonly StationUnit[] }): Promise<RunningDaemon>;
  /** A recording client on `port`, closed after the test. */
  connect(port: number, options?: IClientOptions): Promise<RecordingClient>;
}

export const mqttTest = base.extend<{ mqtt: MqttDaemonFixture }>({
  // eslint-disable-next-line no-empty-pattern -- vitest requires the destructuring pattern
  mqtt: async ({}, use) => {
    const temp = mqttTempDir();
    const daemons: RunningDaemon[] = [];
    const clients: RecordingClient[] = [];
    const fixture: MqttDaemonFixture = {
      dir: temp.dir,
      dbPath: temp.dbPath,
      clock: new FakeClock(FIXTURE_START_MS),
      async start(config, options = {}) {
        const daemon = await startMqttDaemon(temp.dbPath, config, fixture.clock, options.logger, options.units);
        daemons.push(daemon);
        return daemon;
      },
      async connect(port, options) {
        const client = await RecordingClient.connect(port, options);
        clients.push(client);
        return client;
      },
    };
    try {
      await use(fixture);
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      // stop() is idempotent: a daemon the test stopped itself is skipped.
      for (const daemon of daemons.reverse()) await daemon.stop();
      temp.cleanup();
    }
  },
});
