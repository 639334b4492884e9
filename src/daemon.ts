/**
 * The composition root. startDaemon() starts an ordered list of lifecycle
 * components and stops them in reverse order. Nothing happens at import.
 *
 * To add a part (MQTT broker, MQTT client, scheduler), add a component to
 * daemonComponents(): it receives the DaemonRuntime, whose database, store and
 * access cache are available from its start() on (they are started earlier).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config/schema.js';
import { MFI_VERSION } from './core/index.js';
import { buildApp } from './http/app.js';
import { statusPageSources, type StationsView } from './http/stationsView.js';
import { listenHttp } from './http/listen.js';
import { closeApp } from './http/shutdown.js';
import { createMetrics } from './metrics/registry.js';
import { AccessCache } from './store/accessCache.js';
import { Database } from './store/database.js';
import { DatabaseWatch } from './store/databaseWatch.js';
import { ServeLock } from './store/serveLock.js';
import { migrationsAppliedSince } from './store/migrationLog.js';
import { ServiceStore, SETTING_MFI_VERSION } from './store/serviceStore.js';
import type { MqttHealth } from './mqtt/health.js';
import { deferredMqttComponents, type MqttStats } from './mqtt/service.js';
import { mqttEnabled } from './mqtt/settings.js';
import { systemClock, type Clock } from './util/clock.js';
import { explainListenError } from './util/listenError.js';
import { packageHomepage, packageVersion } from './util/packageVersion.js';

export interface LifecycleComponent {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface DaemonOptions {
  config: AppConfig;
  logger: Logger;
  clock?: Clock;
  /** Shell command that creates a key for this daemon's database (shown when none exists). */
  keyCommandHint?: string;
}

/** What components share. Getters throw when read before the providing component started. */
export interface DaemonRuntime {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly database: Database;
  readonly store: ServiceStore;
  readonly access: AccessCache;
  /** e.g. "http://127.0.0.1:8080"; set once the HTTP component listens. */
  readonly httpAddress: string;
}

export interface RunningDaemon {
  /** Stops every component in reverse start order. Idempotent. */
  stop(): Promise<void>;
  readonly httpAddress: string;
}

class MutableRuntime implements DaemonRuntime {
  #database?: Database;
  #store?: ServiceStore;
  #access?: AccessCache;
  #httpAddress?: string;

  constructor(
    readonly config: AppConfig,
    readonly logger: Logger,
    readonly clock: Clock,
  ) {}

  get database(): Database {
    return required(this.#database, 'database');
  }
  set database(value: Database) {
    this.#database = value;
  }
  get store(): ServiceStore {
    return required(this.#store, 'store');
  }
  set store(value: ServiceStore) {
    this.#store = value;
  }
  get access(): AccessCache {
    return required(this.#access, 'access cache');
  }
  set access(value: AccessCache) {
    this.#access = value;
  }
  get httpAddress(): string {
    return required(this.#httpAddress, 'HTTP address');
  }
  set httpAddress(value: string) {
    this.#httpAddress = value;
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not available before its component has started`);
  return value;
}

function databaseComponent(runtime: MutableRuntime): LifecycleComponent {
  let database: Database | undefined;
  let watch: DatabaseWatch | undefined;
  return {
    name: 'database',
    async start() {
      // Database.open stamps migrations with the wall clock, so compare against it, not runtime.clock.
      const openedAt = new Date().toISOString();
      database = await Database.open(runtime.config.db.path);
      watch = new DatabaseWatch({ database, logger: runtime.logger });
      watch.start();
      runtime.database = database;
      for (const migration of await migrationsAppliedSince(database, openedAt)) {
        runtime.logger.info({ version: migration.version, name: migration.name }, `database migration ${migration.version} (${migration.name}) applied`);
      }
      runtime.store = new ServiceStore(database, runtime.clock);
      await runtime.store.setSetting(SETTING_MFI_VERSION, MFI_VERSION);
      runtime.logger.info({ path: runtime.config.db.path, mfiVersion: MFI_VERSION }, 'database open');
    },
    async stop() {
      watch?.stop();
      await database?.close();
    },
  };
}

/** One daemon per database: taken before the database opens, released after it closed. */
function serveLockComponent(runtime: MutableRuntime): LifecycleComponent {
  let lock: ServeLock | null = null;
  return {
    name: 'serve-lock',
    async start() {
      lock = await ServeLock.acquire(runtime.config.db.path);
    },
    async stop() {
      await lock?.release();
      lock = null;
    },
  };
}

function accessCacheComponent(runtime: MutableRuntime, keyCommandHint: string): LifecycleComponent {
  let access: AccessCache | undefined;
  return {
    name: 'access-cache',
    async start() {
      access = new AccessCache({
        database: runtime.database,
        store: runtime.store,
        logger: runtime.logger,
        pollIntervalMs: runtime.config.db.changePollIntervalMs,
      });
      await access.start();
      runtime.access = access;
      if (access.keyCount === 0) {
        runtime.logger.warn({ command: keyCommandHint }, `No API key exists yet. Create one with: ${keyCommandHint}`);
      }
    },
    async stop() {
      await access?.stop();
    },
  };
}

interface HttpSources {
  mqttStatus: () => MqttHealth | undefined;
  mqttStats: () => MqttStats | undefined;
  stations: StationsView;
}

function httpComponent(runtime: MutableRuntime, sources: HttpSources): LifecycleComponent {
  let app: FastifyInstance | undefined;
  return {
    name: 'http',
    async start() {
      const { config } = runtime;
      const metrics = config.http.metrics === 'off' ? undefined : createMetrics({ processMetrics: true, mqttStats: sources.mqttStats });
      app = await buildApp({
        config,
        store: runtime.store,
        access: runtime.access,
        logger: runtime.logger,
        clock: runtime.clock,
        mqttStatus: sources.mqttStatus,
        stations: sources.stations,
        version: packageVersion(),
        ...(metrics ? { metrics } : {}),
      });
      const { port } = await listenHttp(app, config.http).catch((err: unknown) => {
        throw explainListenError(err, 'The HTTP server', config.http, 'Pick another port with MOWABILITY_HTTP_PORT (or http.port).');
      });
      const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
      runtime.httpAddress = `http://${host}:${port}`;
      runtime.logger.info({ url: runtime.httpAddress, host: config.http.host, port }, `HTTP server listening on ${runtime.httpAddress}`);
    },
    async stop() {
      // Stops accepting, lets in-flight requests finish, then closes every connection left.
      if (app) await closeApp(app);
    },
  };
}

/** The daemon's parts in start order. */
export function daemonComponents(runtime: MutableRuntime, options: { keyCommandHint: string }): LifecycleComponent[] {
  // Status page (src/http/statusPage.ts): a recorder unit on the MQTT side, a read view for the HTTP side.
  const statusPage = statusPageSources(runtime.config, (stationId) => mqtt.service()?.stationState(stationId));
  // The product's version (not the MFI spec version) for HA's device sw_version and the bridge's Version entity;
  // its homepage, once package.json names one, as the discovery origin's support_url.
  const mqtt = deferredMqttComponents(() => ({
    config: runtime.config,
    database: runtime.database,
    logger: runtime.logger,
    clock: runtime.clock,
    softwareVersion: packageVersion(),
    supportUrl: packageHomepage(),
    units: [statusPage.recorder],
  }));
  // HTTP starts first; until the MQTT components have started, health says so.
  const mqttStatus = (): MqttHealth | undefined =>
    mqttEnabled(runtime.config) ? (mqtt.service()?.health() ?? { status: 'error', message: 'MQTT is starting' }) : undefined;
  return [
    serveLockComponent(runtime),
    databaseComponent(runtime),
    accessCacheComponent(runtime, options.keyCommandHint),
    httpComponent(runtime, {
      mqttStatus,
      mqttStats: () => (mqttEnabled(runtime.config) ? mqtt.service()?.stats() : undefined),
      stations: statusPage.view,
    }),
    ...mqtt.components,
  ];
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const logger = options.logger;
  const runtime = new MutableRuntime(options.config, logger, options.clock ?? systemClock);
  const components = daemonComponents(runtime, { keyCommandHint: options.keyCommandHint ?? 'npx mowability keys add <owner>' });
  const started: LifecycleComponent[] = [];

  const stopStarted = async (): Promise<void> => {
    for (const component of [...started].reverse()) {
      try {
        await component.stop();
        logger.debug({ component: component.name }, 'component stopped');
      } catch (err) {
        logger.error({ err, component: component.name }, 'component failed to stop');
      }
    }
    started.length = 0;
  };

  for (const component of components) {
    try {
      await component.start();
      started.push(component);
      logger.debug({ component: component.name }, 'component started');
    } catch (err) {
      logger.error({ err, component: component.name }, 'component failed to start');
      await stopStarted();
      throw err;
    }
  }

  let stopping: Promise<void> | undefined;
  return {
    httpAddress: runtime.httpAddress,
    stop: () => (stopping ??= stopStarted().then(() => logger.info('daemon stopped'))),
  };
}

export type { MutableRuntime };
