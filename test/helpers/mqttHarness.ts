/**
 * Test harness for the MQTT daemon: temp SQLite files, a configuration with
 * an embedded broker on port 0, lifecycle start/stop, a fake clock, and
 * mqtt.js clients that record the latest message per topic.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pino from 'pino';
import type { StationConfig } from '../../src/ingest/types.js';
import { createMqttService, type MqttService } from '../../src/mqtt/service.js';
import type { MqttSideConfig } from '../../src/mqtt/settings.js';
import { Database } from '../../src/store/database.js';

/** Silent unless MOW_TEST_LOG names a level (debugging a failing test). */
export const silentLogger = pino({ level: process.env.MOW_TEST_LOG ?? 'silent' });

export function mqttTempDir(): { dir: string; dbPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mow-mqtt-'));
  return { dir, dbPath: join(dir, 'mowability.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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

type DeepPartial<T> = { -readonly [K in keyof T]?: T[K] extends object ? (T[K] extends readonly unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

export function testMqttConfig(overrides: DeepPartial<MqttSideConfig> & { timezone?: string } = {}): MqttSideConfig & { timezone: string } {
  return {
    timezone: overrides.timezone ?? 'Europe/Berlin',
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
      recomputeDebounceMs: 0,
      mowableOnThreshold: 70,
      mowableOffThreshold: 60,
      mowableOnDelayMinutes: 15,
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
      ...overrides.broker,
    },
    homeassistant: { discovery: true, prefix: 'homeassistant', statusTopic: 'homeassistant/status', ...overrides.homeassistant },
    history: {
      rainCounterReset: 'ignore',
      maxRainIncrementMm: 50,
      maxGapMinutes: 15,
      freshnessMinutes: 30,
      flushIntervalSeconds: 1,
      pruneSchedule: '17 3 * * *',
      ...overrides.history,
    },
    stations: (overrides.stations ?? []) as StationConfig[],
  };
}

export interface RunningDaemon {
  service: MqttService;
  database: Database;
  port: number;
  stop(): Promise<void>;
}

/** Opens the database and starts the MQTT components in order, as the composition root does. */
export async function startMqttDaemon(dbPath: string, config: MqttSideConfig, clock: FakeClock): Promise<RunningDaemon> {
  const database = await Database.open(dbPath);
  const service = createMqttService({ config, database, logger: silentLogger, clock });
  const started: typeof service.components = [];
  try {
    for (const component of service.components) {
      await component.start();
      started.push(component);
    }
  } catch (err) {
    for (const component of started.reverse()) await component.stop();
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
      for (const component of [...service.components].reverse()) await component.stop();
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

/** Polls `check` until it returns true or the timeout passes. */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Connects a fresh client and returns the retained message on `topic` (undefined if none within the timeout). */
export async function retainedMessage(port: number, topic: string, timeoutMs = 1500, options: IClientOptions = {}): Promise<string | undefined> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  try {
    return await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      client.on('message', (received, payload, packet) => {
        if (received === topic && packet.retain) {
          clearTimeout(timer);
          resolve(payload.toString('utf8'));
        }
      });
      void client.subscribeAsync(topic, { qos: 1 });
    });
  } finally {
    await client.endAsync(true);
  }
}

/** Publishes once from a throwaway client (the broker may refuse and disconnect it). */
export async function publishOnce(port: number, topic: string, payload: string, options: { qos?: 0 | 1; retain?: boolean } = {}): Promise<void> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 5000 });
  try {
    await Promise.race([
      client.publishAsync(topic, payload, { qos: options.qos ?? 0, retain: options.retain ?? false }).catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, 1000)),
    ]);
    // Let the broker read the packet before the socket closes.
    await new Promise((resolve) => setTimeout(resolve, 150));
  } finally {
    await client.endAsync(true);
  }
}
