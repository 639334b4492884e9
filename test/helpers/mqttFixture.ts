/**
 * The daemon tests' one fixture (vitest `test.extend`): a temp database, a fake clock, and
 * starters that remember what they opened, so every daemon, client and broker is closed and
 * the temp dir removed after each test, whatever the test did. Replaces the copied
 * beforeEach/afterEach blocks.
 *
 * - `start()`: the station side and the MQTT side alone, built as the composition root builds them (createSides).
 * - `serve()`: the whole composition root (`startDaemon`, what `mowability serve` runs) from a
 *   config file, with HTTP on an ephemeral port.
 * - `mosquitto()`: Debian's mosquitto as an external broker.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IClientOptions } from 'mqtt';
import type { Logger } from 'pino';
import { test as base } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, stationUnitConfigs, type RunningDaemon as ServeDaemon } from '../../src/daemon.js';
import type { StationUnit } from '../../src/station/unit.js';
import { captureLogger } from './httpLogCapture.js';
import { FakeClock, RecordingClient, mqttTempDir, startMqttDaemon, type RunningDaemon, type TestSideConfig } from './mqttHarness.js';
import { AutosavingMosquitto, Mosquitto, startMosquitto } from '../../bench/lib/mosquitto.js';

/** Midsummer morning: the season and daylight checks are not in the way. */
export const FIXTURE_START_MS = Date.parse('2026-06-15T08:00:00Z');

export interface ServedDaemon {
  readonly daemon: ServeDaemon;
  readonly httpAddress: string;
  /** The embedded broker's port, from its "listening" log line (undefined with the broker off). */
  readonly brokerPort: number | undefined;
  /** The daemon's log (level info unless `logLevel` says otherwise). */
  readonly log: ReturnType<typeof captureLogger>;
}

export interface ServeOptions {
  /** Environment variables on top of the fixture's (database in the temp dir, HTTP and broker on port 0). */
  env?: Record<string, string>;
  logLevel?: string;
  /** The daemon's clock: the fixture's fake clock when true, the wall clock otherwise. */
  fakeClock?: boolean;
}

export interface MqttDaemonFixture {
  readonly dir: string;
  readonly dbPath: string;
  readonly clock: FakeClock;
  /** Starts the station side on the fixture's database (again after a stop: a restart); `clock` replaces the fixture's. */
  start(config: TestSideConfig, options?: { logger?: Logger; units?: readonly StationUnit[]; clock?: FakeClock }): Promise<RunningDaemon>;
  /**
   * Starts the whole daemon as `serve` does, from `configFile` (written to config.json in the
   * temp dir; none when undefined) and the environment.
   */
  serve(configFile?: unknown, options?: ServeOptions): Promise<ServedDaemon>;
  /** A recording client on `port`, closed after the test. */
  connect(port: number, options?: IClientOptions): Promise<RecordingClient>;
  /**
   * Starts mosquitto in the temp dir (on `port`, or on a free one; `autosave`: it saves its
   * persistence every second), killed after the test.
   */
  mosquitto(options?: { port?: number; autosave?: boolean }): Promise<Mosquitto>;
  /** Runs `cleanup` after the test, after the clients close and before the daemons stop. */
  defer(cleanup: () => unknown): void;
}

export const mqttTest = base.extend<{ mqtt: MqttDaemonFixture }>({
  // eslint-disable-next-line no-empty-pattern -- vitest requires the destructuring pattern
  mqtt: async ({}, use) => {
    const temp = mqttTempDir();
    const daemons: Array<{ stop(): Promise<void> }> = [];
    const clients: RecordingClient[] = [];
    const brokers: Mosquitto[] = [];
    const deferred: Array<() => unknown> = [];
    const fixture: MqttDaemonFixture = {
      dir: temp.dir,
      dbPath: temp.dbPath,
      clock: new FakeClock(FIXTURE_START_MS),
      async start(config, options = {}) {
        const daemon = await startMqttDaemon(temp.dbPath, config, options.clock ?? fixture.clock, options.logger, options.units);
        daemons.push(daemon);
        return daemon;
      },
      async serve(configFile, options = {}) {
        const served = await serveDaemon(temp, fixture.clock, configFile, options);
        daemons.push(served.daemon);
        return served;
      },
      async connect(port, options) {
        const client = await RecordingClient.connect(port, options);
        clients.push(client);
        return client;
      },
      async mosquitto({ port, autosave = false } = {}) {
        const create = (dir: string, on: number) => (autosave ? new AutosavingMosquitto(dir, on) : new Mosquitto(dir, on));
        if (port === undefined) {
          const started = await startMosquitto(temp.dir, create);
          brokers.push(started);
          return started;
        }
        const broker = create(temp.dir, port);
        brokers.push(broker);
        await broker.start();
        return broker;
      },
      defer(cleanup) {
        deferred.push(cleanup);
      },
    };
    try {
      await use(fixture);
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      for (const cleanup of deferred.reverse()) await cleanup();
      // stop() is idempotent: a daemon the test stopped itself is skipped.
      for (const daemon of daemons.reverse()) await daemon.stop();
      for (const broker of brokers) await broker.stop('SIGKILL');
      temp.cleanup();
    }
  },
});

async function serveDaemon(
  temp: { dir: string; dbPath: string },
  clock: FakeClock,
  configFile: unknown,
  options: ServeOptions,
): Promise<ServedDaemon> {
  const argv: string[] = [];
  if (configFile !== undefined) {
    const file = join(temp.dir, 'config.json');
    writeFileSync(file, JSON.stringify(configFile));
    argv.push('--config', file);
  }
  const env = {
    MOWABILITY_DB_PATH: temp.dbPath,
    MOWABILITY_HTTP_HOST: '127.0.0.1',
    MOWABILITY_HTTP_PORT: '0',
    MOWABILITY_BROKER_PORT: '0',
    ...options.env,
  };
  const log = captureLogger(options.logLevel ?? 'info');
  const daemon = await startDaemon({
    config: loadConfig({ argv, env, units: stationUnitConfigs() }),
    logger: log.logger,
    ...(options.fakeClock ? { clock } : {}),
  });
  const listening = log.lines().find((line) => line.msg === 'embedded MQTT broker listening');
  return { daemon, httpAddress: daemon.httpAddress, brokerPort: listening?.port as number | undefined, log };
}
