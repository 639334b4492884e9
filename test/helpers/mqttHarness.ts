/**
 * Test harness for the MQTT daemon: temp SQLite files, a configuration with
 * an embedded broker on port 0, lifecycle start/stop, a fake clock, and
 * mqtt.js clients that record the latest message per topic.
 */
import type { Reading } from '../../src/ingest/types.js';
import type { StationUnit } from '../../src/station/unit.js';
import type { LifecycleComponent } from '../../src/util/lifecycle.js';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pino, { type Logger } from 'pino';
import { mqttSchema } from '../../src/config/mqttSchema.js';
import { buildStationUnits } from '../../src/daemon.js';
import { createMqttSide, type MqttSide, type MqttStats } from '../../src/mqtt/service.js';
import { createStationSide, type StationSide } from '../../src/station/side.js';
import { StationControls } from '../../src/station/stationControls.js';
import type { Clock } from '../../src/util/clock.js';
import { startInOrder, type StartedComponents } from '../../src/util/lifecycle.js';
import type { MqttSideConfig } from '../../src/mqtt/settings.js';
import type { StationSideConfig } from '../../src/config/schema.js';
import { Database } from '../../src/store/database.js';
import { makeTempDir } from './httpTempDir.js';
import { withDeadline } from './wait.js';

/** Silent unless MOW_TEST_LOG names a level (debugging a failing test). */
export const silentLogger = pino({ level: process.env.MOW_TEST_LOG ?? 'silent' });

/** A temp dir with a database path (test/helpers/httpTempDir.ts's, named for MQTT tests). */
export function mqttTempDir(): { dir: string; dbPath: string; cleanup(): void } {
  return makeTempDir('mow-mqtt-');
}

/** A parsed reading as a station's format or an upload hands it to the pipeline (acceptReading). */
export function reading(values: Reading['values'], rainDeltaMm?: number): Reading {
  return {
    values,
    rainCounters: [],
    ...(rainDeltaMm === undefined ? {} : { rainDeltaMm }),
    fingerprint: JSON.stringify([values, rainDeltaMm]),
    dropped: [],
  };
}

export class FakeClock {
  constructor(public ms: number = Date.now()) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

type DeepPartial<T> = {
  -readonly [K in keyof T]?: T[K] extends object ? (T[K] extends readonly unknown[] ? T[K] : DeepPartial<T[K]>) : T[K];
};

/** The station side's and the MQTT side's configuration, as a test daemon runs them. */
export type TestSideConfig = MqttSideConfig & StationSideConfig & { timezone: string };

export function testMqttConfig(overrides: DeepPartial<MqttSideConfig & StationSideConfig> & { timezone?: string } = {}): TestSideConfig {
  return {
    timezone: overrides.timezone ?? 'Europe/Berlin',
    station: {
      recomputeDebounceMs: 0,
      recomputeIntervalSeconds: 60,
      mowableOnThreshold: 70,
      mowableOffThreshold: 60,
      mowableOnDelayMinutes: 15,
      maxPayloadBytes: 65536,
      ...overrides.station,
    },
    mqtt: {
      url: '',
      username: '',
      password: '',
      clientId: '',
      ca: '',
      cert: '',
      key: '',
      rejectUnauthorized: true,
      keepaliveSeconds: 60,
      reconnectMaxSeconds: 2,
      baseTopic: 'mowability',
      uploadRelay: false,
      ...overrides.mqtt,
    },
    broker: {
      enabled: true,
      host: '127.0.0.1',
      port: 0,
      users: [],
      maxPayloadBytes: 65536,
      maxTopicLevels: 16,
      persistRetained: true,
      maxClients: 64,
      sysTopics: false,
      maxRetainedMessages: mqttSchema.broker.maxRetainedMessages.default,
      maxRetainedBytes: mqttSchema.broker.maxRetainedBytes.default,
      maxRetainedBytesPerClient: mqttSchema.broker.maxRetainedBytesPerClient.default,
      maxInflightBytesPerClient: mqttSchema.broker.maxInflightBytesPerClient.default,
      maxInflightBytes: mqttSchema.broker.maxInflightBytes.default,
      maxOutgoingBytesPerClient: mqttSchema.broker.maxOutgoingBytesPerClient.default,
      slowClientSeconds: mqttSchema.broker.slowClientSeconds.default,
      maxSubscriptionsPerClient: mqttSchema.broker.maxSubscriptionsPerClient.default,
      maxFiltersPerSubscribe: mqttSchema.broker.maxFiltersPerSubscribe.default,
      maxPersistentSessions: mqttSchema.broker.maxPersistentSessions.default,
      maxQueuedMessagesPerSession: mqttSchema.broker.maxQueuedMessagesPerSession.default,
      maxQueuedBytesPerSession: mqttSchema.broker.maxQueuedBytesPerSession.default,
      ...overrides.broker,
    },
    homeassistant: {
      discovery: true,
      prefix: 'homeassistant',
      statusTopic: 'homeassistant/status',
      birthResendSeconds: 60,
      configurationUrl: '',
      commandAccount: '',
      ...overrides.homeassistant,
    },
    history: {
      rainCounterReset: 'ignore',
      maxRainIncrementMm: 50,
      maxGapMinutes: 15,
      freshnessMinutes: 30,
      flushIntervalSeconds: 1,
      pruneSchedule: '17 3 * * *',
      ...overrides.history,
    },
    stations: overrides.stations ?? [],
  };
}

/** The station side and the MQTT side as one object, as tests drive them: the MQTT side's stats include the station side's. */
export type TestSides = Omit<StationSide, 'components' | 'stats' | 'features'> &
  Pick<MqttSide, 'brokerPort' | 'health'> & {
    /** In start order, as the daemon starts them: station pipeline, scheduled jobs, [embedded broker, bridge]. */
    readonly components: readonly LifecycleComponent[];
    stats(): MqttStats;
  };

/** Builds both sides as the composition root does (src/daemon.ts), with the given station units. */
export function createSides(options: {
  config: TestSideConfig;
  database: Database;
  logger: Logger;
  clock: Clock;
  units?: readonly StationUnit[];
}): TestSides {
  const { config, database, logger, clock } = options;
  const units = options.units ?? [];
  // The Home Assistant controls among the units are also the recompute's overrides, as in the daemon (builtInUnits).
  const overrides = units.find((unit): unit is StationControls => unit instanceof StationControls);
  const station = createStationSide({ config, database, logger, clock }, () => ({ units, overrides }));
  const mqtt = createMqttSide({ config, station, database, logger, clock });
  return {
    ...station,
    components: [...station.components, ...mqtt.components],
    stats: () => mqtt.stats(),
    brokerPort: () => mqtt.brokerPort(),
    health: () => mqtt.health(),
  };
}

export interface RunningDaemon {
  service: TestSides;
  database: Database;
  port: number;
  stop(): Promise<void>;
}

/**
 * Opens the database and starts the station side and the MQTT side in the daemon's order (what `serve`
 * runs between its storage and HTTP), with the units of stationUnits() (irrigation, snow cover) before
 * `units`, as the daemon has them.
 */
export async function startMqttDaemon(
  dbPath: string,
  config: TestSideConfig,
  clock: FakeClock,
  logger: Logger = silentLogger,
  units: readonly StationUnit[] | ((database: Database) => readonly StationUnit[]) = [],
): Promise<RunningDaemon> {
  const database = await Database.open(dbPath);
  let started: StartedComponents;
  let service: TestSides;
  try {
    service = createSides({
      config,
      database,
      logger,
      clock,
      units: [...buildStationUnits({ config, logger, clock }), ...(typeof units === 'function' ? units(database) : units)],
    });
    started = await startInOrder(service.components, logger);
  } catch (err) {
    await database.close();
    throw err;
  }
  let stopped = false;
  return {
    service,
    database,
    port: service.brokerPort() ?? 0,
    async stop() {
      if (stopped) return;
      stopped = true;
      await started.stop();
      await database.close();
    },
  };
}

/** A real mqtt.js client that remembers the latest payload (and retain flag) per topic. */
export class RecordingClient {
  readonly latest = new Map<string, { payload: string; retain: boolean; count: number }>();
  constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      const previous = this.latest.get(topic);
      this.latest.set(topic, { payload: payload.toString('utf8'), retain: packet.retain, count: (previous?.count ?? 0) + 1 });
    });
  }

  static async connect(port: number, options: IClientOptions = {}): Promise<RecordingClient> {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
    return new RecordingClient(client);
  }

  json(topic: string): Record<string, unknown> | undefined {
    const entry = this.latest.get(topic);
    return entry ? (JSON.parse(entry.payload) as Record<string, unknown>) : undefined;
  }

  text(topic: string): string | undefined {
    return this.latest.get(topic)?.payload;
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}

export { waitUntil, withDeadline } from './wait.js';
export { noRetainedMessage, retainedMessage, retainedNow, retainedUnder, waitForRetained } from './mqttRetained.js';

/** Topics of the retained messages stored in the database at `dbPath` (open it after the daemon stopped). */
export async function storedRetainedTopics(dbPath: string): Promise<string[]> {
  const database = await Database.open(dbPath);
  try {
    return (await database.all<{ topic: string }>('SELECT topic FROM retained_messages ORDER BY topic')).map((row) => row.topic);
  } finally {
    await database.close();
  }
}

/**
 * Publishes once from a throwaway client and resolves once the broker has handled the publish:
 * 'handled' when it answered a later packet of the same connection (brokers handle a
 * connection's packets in order), 'closed' when it closed the connection instead (a refusal:
 * MQTT 3.1.1 has no negative acknowledgement), 'refused' when it refused the CONNECT
 * (`options.connect`: client id, credentials).
 */
export async function publishOnce(
  port: number,
  topic: string,
  payload: string | Buffer,
  options: { qos?: 0 | 1; retain?: boolean; clientId?: string; connect?: IClientOptions } = {},
): Promise<'handled' | 'closed' | 'refused'> {
  let client: MqttClient;
  try {
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...(options.clientId ? { clientId: options.clientId } : {}),
      ...options.connect,
    });
  } catch (err) {
    if (/Connection refused/i.test((err as Error).message)) return 'refused';
    throw err;
  }
  const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
  try {
    const handled = (async () => {
      await client.publishAsync(topic, payload, { qos: options.qos ?? 0, retain: options.retain ?? false });
      await client.unsubscribeAsync('mowability-test/sync');
      return 'handled' as const;
    })().catch(() => closed);
    return await withDeadline(Promise.race([handled, closed]), 5000, `the broker to handle a publish to ${topic.slice(0, 60)}`);
  } finally {
    await client.endAsync(true);
  }
}
