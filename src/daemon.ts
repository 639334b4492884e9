/**
 * The composition root: the whole system, built and started top to bottom, stopped in reverse.
 *
 *   clock watch → serve lock → database → [public service: PostgreSQL, Redis] → API keys → [key usage]
 *   → station side (pipeline with its units, scheduled jobs) → MQTT side (broker, bridge) → HTTP
 *
 * Each part starts with the values the earlier ones returned, so nothing is read before it
 * exists. HTTP starts last and gets a read-only facade of the running station side
 * (src/station/facade.ts). A feature that knows more about a station (forecast, lawn memory,
 * quiet hours) is a StationUnit: a self-contained module is one line in stationUnits() below
 * (docs/units.md), with its settings, station key, routes and the services it provides to the
 * modules after it; one built from parts HTTP shares goes into builtInUnits(). docs/architecture.md
 * has the map. Nothing happens at import.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config/schema.js';
import { deprecationMessage, type DeprecatedSettingUse } from './config/settingAliases.js';
import {
  closeDatabase,
  commandPartsOf,
  openDatabase,
  openExtensions,
  serveLockComponent,
  serviceStoreOn,
  startAccessCache,
  unitStoresOn,
  type ExtensionCommands,
  type ExtensionDeps,
  type ServiceExtension,
  type UnitStores,
} from './daemonStorage.js';
import { forecastModule } from './forecast/forecastModule.js';
import { buildApp, type AppDeps } from './http/app.js';
import { listenHttp } from './http/listen.js';
import { closeApp } from './http/shutdown.js';
import { createStationsView } from './http/stationsView.js';
import { historyOptionsFor } from './config/historyOptions.js';
import { ChartRecorder } from './station/chartRecorder.js';
import type { UploadRefusal } from './http/uploads.js';
import { UploadCounters } from './http/uploadsCounters.js';
import { createConnectionCounters } from './http/connectionCounters.js';
import { lawnMemoryUnit } from './lawn/buildLawnUnit.js';
import { lawnsModule } from './lawn/lawnsModule.js';
import { planModule } from './lawn/planModule.js';
import { createMetrics } from './metrics/registry.js';
import { StationReadingCounter } from './metrics/stationReadings.js';
import { modelledModule } from './modelled/modelledModule.js';
import { mowerControlModule } from './mower/mowerControlModule.js';
import { createMqttSide, type MqttSide } from './mqtt/service.js';
import { mqttEnabled } from './mqtt/settings.js';
import type { StationFacade } from './station/facade.js';
import { createStationSide, type StationFeatures, type StationSide } from './station/side.js';
import type { StationUnit } from './station/unit.js';
import { StationControls } from './station/stationControls.js';
import { mowableSettingsFor } from './station/recompute.js';
import { DEFAULT_LAWN, type MowerClass } from './core/index.js';
import { buildUnits, moduleOf, unitMetricsOf, wire, type StationUnitEntry, type UnitBuildDeps } from './station/unitBuilder.js';
import { irrigationUnit } from './units/irrigationSource.js';
import { snowCoverUnit } from './units/snowCover.js';
import type { UnitConfigSpec } from './config/unitSettings.js';
import { LogThrottle } from './util/logThrottle.js';
import { UploadRefusals } from './station/uploadRefusals.js';
import { publicService } from './publicService/plug.js';
import { TopicsHeardNearby } from './station/topicsHeard.js';
import { topicMatches } from './mqtt/topics.js';
import type { AccessCache } from './store/accessCache.js';
import type { Database } from './store/database.js';
import { StationControlStore } from './store/stationControlStore.js';
import { monotonicClock, systemClock, type Clock, type MonotonicClock } from './util/clock.js';
import { readClockSync } from './util/clockSync.js';
import { ClockWatch } from './util/clockWatch.js';
import { StartedStack } from './util/lifecycle.js';
import { explainListenError } from './util/listenError.js';
import { packageHomepage, packageVersion } from './util/packageVersion.js';

export interface DaemonOptions {
  config: AppConfig;
  logger: Logger;
  /** The old setting names the configuration was loaded with (loadConfiguration()): one warning each at start. */
  deprecatedSettings?: readonly DeprecatedSettingUse[];
  /** The variables the loader read no setting for (loadConfiguration()): a unit's among them stops its build (src/station/unitBuilder.ts). */
  unreadEnvironment?: readonly string[];
  /** The HTTP access lines' logger (createAccessLogger: written in blocks); omitted: they go through `logger`. */
  accessLogger?: Logger;
  clock?: Clock;
  /** With `clock`: the monotonic clock clock steps are measured against (without it, an injected clock is not watched). */
  monotonic?: MonotonicClock;
  /** Shell command that creates a key for this daemon's database (shown when none exists). */
  keyCommandHint?: string;
}

export interface RunningDaemon {
  /** Stops every part in reverse start order. Idempotent. */
  stop(): Promise<void>;
  readonly httpAddress: string;
  /** The station side's facade and counters, e.g. for the benchmarks. */
  readonly station: StationFacade & Pick<StationSide, 'stats' | 'flush'>;
  /** The MQTT side: its broker port and counters (no parts with MQTT off). */
  readonly mqtt: Pick<MqttSide, 'brokerPort' | 'stats'>;
}

/** What the parts after the storage are built with. */
interface Core {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly clockWatch: ClockWatch | undefined;
  readonly monotonic: MonotonicClock | undefined;
  readonly database: Database;
  readonly unreadEnvironment: readonly string[] | undefined;
}

/** One warning line per old setting name the configuration was loaded with (src/config/settingAliases.ts). */
export function logDeprecatedSettings(uses: readonly DeprecatedSettingUse[], logger: Logger): void {
  for (const use of uses) logger.warn({ setting: use.used, instead: use.instead }, deprecationMessage(use));
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const { config, logger } = options;
  logDeprecatedSettings(options.deprecatedSettings ?? [], logger);
  const clock = options.clock ?? systemClock;
  // An injected clock without a monotonic one is a test driving time by hand: its jumps are not steps.
  const monotonic = options.clock === undefined || options.monotonic !== undefined ? (options.monotonic ?? monotonicClock) : undefined;
  const clockWatch =
    monotonic && new ClockWatch({ wall: clock, monotonic, logger, readSync: () => readClockSync(config.clock.syncMarkerPath) });
  const parts = new StartedStack(logger);
  try {
    if (clockWatch) await parts.start(clockWatch);

    // Storage: one daemon per database; the service tables in SQLite, or in PostgreSQL with the public service.
    await parts.start(serveLockComponent(config.db.path));
    const { database } = await parts.open('database', () => openDatabase(config, logger, clockWatch), closeDatabase);
    const extensions = await openExtensions(parts, serviceExtensions(), { config, logger, clock, clockWatch, database });
    const sqliteStore = await serviceStoreOn(database, clock);
    const serviceDatabase = extensions.serviceDatabase ?? database;
    const store = serviceDatabase === database ? sqliteStore : await serviceStoreOn(serviceDatabase, clock);
    const keys = { serviceDatabase, store, config, logger, clock };
    const access = await parts.open(
      'access-cache',
      () => startAccessCache(keys, options.keyCommandHint ?? 'npx mowability keys add <owner>', clockWatch),
      (cache) => cache.stop(),
    );
    const extended = await extensions.withKeys({ serviceDatabase, store, sqliteStore, access });

    // The station side, then the MQTT side that feeds it and publishes its states.
    const core: Core = { config, logger, clock, clockWatch, monotonic, database, unreadEnvironment: options.unreadEnvironment };
    const station = createStationSide({ config, database, logger, clock, clockWatch, monotonic }, (facade) => builtInUnits(core, facade));
    await parts.startAll(station.components);
    const mqtt = createMqttSide({
      config,
      station,
      database,
      logger,
      clock,
      clockWatch,
      softwareVersion: packageVersion(),
      supportUrl: packageHomepage(),
      onBrokerPublish: (topic) => station.features.topicsHeard.heard(topic),
    });
    await parts.startAll(mqtt.components);

    // HTTP last: it reads the running station side through its facade.
    const http = { app: undefined as FastifyInstance | undefined, address: '' };
    await parts.start({
      name: 'http',
      start: async () => {
        http.app = await buildHttpApp(core, { station, mqtt, store, access, extended }, options.accessLogger);
        http.address = await listen(http.app, config, logger);
      },
      // Stops accepting, lets in-flight requests finish, then closes every connection left.
      stop: async () => {
        if (http.app) await closeApp(http.app);
      },
    });
    let stopping: Promise<void> | undefined;
    return {
      httpAddress: http.address,
      station,
      mqtt,
      stop: () => (stopping ??= parts.stop().then(() => logger.info('daemon stopped'))),
    };
  } catch (err) {
    await parts.stop();
    throw err;
  }
}

/**
 * The station units (src/station/unit.ts) that come as one module each: its settings, its key in the
 * station objects and that key's validation, its state, hold, entities, counters and routes. A new
 * station feature is one module and one line here (docs/units.md). The pipeline asks them first, in
 * this order, then the built-in units below. What one module hands another is wired here by name
 * (`wire`): a module is wired only with the station side's readings, what the modules above it provide
 * and its own store of `stores` (none: built without a database, or only for the configuration's schema).
 */
export function stationUnits(stores?: UnitStores): readonly StationUnitEntry[] {
  return [
    // The lawns each station serves (src/lawn/lawnsModule.ts, the station key `lawns`): no unit, wired into the lawn memory and the planner.
    lawnsModule,
    // Sprinkler runs from MQTT → minutes_since_irrigation (src/units/irrigationSource.ts).
    irrigationUnit,
    // Snow cover from a topic holds mowable off (src/units/snowCover.ts; the worked example in docs/units.md).
    snowCoverUnit,
    // Lawn memory (src/lawn/): blade and soil water, growth since the last cut, cuts from a mower topic; offers the quiet hours.
    wire(lawnMemoryUnit, ({ from }) => ({ lawns: from(lawnsModule).lawns, store: stores?.lawnMemory })),
    // Modelled stations and gap filling (src/modelled/): Open-Meteo's readings into the pipeline like uploads, after the
    // lawn memory so its soil estimate comes first; offers the forecast carrier (one request for readings and forecast).
    wire(modelledModule, ({ readings }) => ({ readings })),
    // The forecast (src/forecast/): after the units above, it starts from the input they extended (the blade water,
    // docs/model.md); its windows honour the lawn memory's quiet hours, and the modelled module's requests carry its forecast.
    wire(forecastModule, ({ from }) => ({
      quietHours: from(lawnMemoryUnit).quietHours,
      carrier: from(modelledModule).carrier,
      store: stores?.forecasts,
    })),
    // Mower control (src/mower/, docs/mower.md): drives each lawn's robot mower from each new state; off unless
    // mower.control.enabled. It honours the lawn memory's quiet hours and records its completed runs there as cuts; it
    // offers Home Assistant's services (its connection, or the add-on's) to the plan's notifications and its lawns' runs to the plan.
    // Each lawn's own mower block (the lawns) gets a control of its own.
    wire(mowerControlModule, ({ from }) => ({
      quietHours: from(lawnMemoryUnit).quietHours,
      recordCut: from(lawnMemoryUnit).recordCut,
      store: stores?.mowerRuns,
      lawns: from(lawnsModule).lawns,
    })),
    // The week plan (src/lawn/planModule.ts): each lawn's need, debt and run slots over the whole forecast, re-planned
    // only when its inputs change; from the lawns, the lawn memory's growth, the forecast's week and the mower
    // control's runs of each lawn; its changes also go to Home Assistant's plan.notifyService through the mower control's connection.
    wire(planModule, ({ from }) => ({
      lawns: from(lawnsModule).lawns,
      memory: from(lawnMemoryUnit),
      week: from(forecastModule).week,
      homeAssistant: from(mowerControlModule).homeAssistant,
      runs: from(mowerControlModule).runs,
      store: stores?.lawnPlans,
    })),
  ];
}

/**
 * Parts beyond a home install, one line each: they open after the database, may move the service
 * tables (PostgreSQL), and add to HTTP after the API keys (src/daemonStorage.ts, ServiceExtension).
 * A home install runs with none.
 */
export function serviceExtensions(): readonly ServiceExtension[] {
  return [
    // The public service (src/publicService/): key usage and quotas, registration, PostgreSQL and Redis.
    publicService,
  ];
}

/** The command line's parts of the extensions (src/cli/context.ts, `mowability registrations`). */
export function serviceCommands(): ExtensionCommands {
  return commandPartsOf(serviceExtensions());
}

/** What the configuration loader needs of the station units: their settings and station keys. */
export function stationUnitConfigs(): UnitConfigSpec[] {
  return stationUnits().flatMap((entry) => moduleOf(entry).config ?? []);
}

/**
 * Builds stationUnits() from the loaded configuration (each from its own slices of it, its store on
 * `store`, the database, the station side's acceptReading as `readings`).
 */
export function buildStationUnits(
  deps: Pick<UnitBuildDeps, 'config' | 'logger' | 'clock' | 'readings' | 'overrides' | 'unreadEnvironment'> & { readonly store?: Database },
): StationUnit[] {
  const { store, ...build } = deps;
  const throttle = (log: Logger): LogThrottle => new LogThrottle(log);
  return buildUnits(stationUnits(store && unitStoresOn(store)), { ...build, throttle });
}

/** The station units and what HTTP reads of them (the status page's chart series, upload refusals, reading counts). */
export interface DaemonFeatures extends StationFeatures {
  /** The units built from stationUnits(): HTTP registers their routes and metrics. */
  readonly modules: readonly StationUnit[];
  readonly readings: StationReadingCounter;
  readonly uploadRefusals: UploadRefusals;
  /** The status page's chart series, fed by the pipeline (onReading, onState); HTTP only reads them. */
  readonly charts: ChartRecorder;
  /** The topics the embedded broker saw near a silent station's (src/station/topicsHeard.ts). */
  readonly topicsHeard: TopicsHeardNearby;
}

/**
 * Every station unit, in the order the pipeline asks them (after the built-in recent rain): the
 * modules of stationUnits() first (built here: the facade's acceptReading is their `readings`),
 * then the units built from parts the HTTP side shares (the status page's recorder, upload refusals).
 */
export function builtInUnits(core: Core, station: StationFacade): DaemonFeatures {
  const { config, logger, clock, database, unreadEnvironment } = core;
  // First: the values Home Assistant set reach the modules' calculation context (the forecast's mower class) too.
  const controls = stationControlsFor(config, database, logger, clock);
  const modules = buildStationUnits({
    config,
    logger,
    clock,
    store: database,
    readings: station.acceptReading,
    overrides: controls,
    ...(unreadEnvironment && { unreadEnvironment }),
  });
  const readings = new StationReadingCounter();
  const uploadRefusals = new UploadRefusals({
    database: () => database,
    logger,
    now: () => clock.now(),
    saveIntervalMs: config.history.flushIntervalSeconds * 1000,
  });
  const charts = new ChartRecorder({ database: () => database, stations: config.stations.map(({ id }) => id) });
  const topicsHeard = new TopicsHeardNearby({ stations: config.stations, matches: topicMatches, now: () => clock.now() });
  const units: StationUnit[] = [
    ...modules,
    readings,
    // Refused uploads in the state and for `mowability status` (src/station/uploadRefusals.ts).
    uploadRefusals,
    // The status page's chart series (src/station/chartRecorder.ts).
    charts,
    // A silent station's nearby topics on the embedded broker, in the state (src/station/topicsHeard.ts).
    topicsHeard,
    // Home Assistant's numbers and select: the mowable hysteresis and mower class per station (src/station/stationControls.ts).
    controls,
  ];
  return { units, modules, readings, uploadRefusals, charts, topicsHeard, overrides: controls };
}

/** The Home Assistant controls of every configured station, over the configured values (station.*, each station's lawn). */
export function stationControlsFor(
  config: Pick<AppConfig, 'stations' | 'station' | 'mqtt'> & { readonly lawn?: { readonly mowerClass?: MowerClass } },
  database: Database | undefined,
  logger: Logger,
  clock: Clock,
): StationControls {
  return new StationControls({
    stations: config.stations.map((station) => ({
      id: station.id,
      mowerClass: station.lawn?.mowerClass ?? config.lawn?.mowerClass ?? DEFAULT_LAWN.mowerClass,
    })),
    mowable: mowableSettingsFor(config),
    ...(database && { store: new StationControlStore(database) }),
    baseTopic: config.mqtt.baseTopic,
    log: logger.child({ module: 'controls' }),
    now: () => clock.now(),
  });
}

interface HttpSources {
  station: StationFacade & { readonly features: DaemonFeatures };
  mqtt: MqttSide;
  store: Pick<AppDeps, 'store'>['store'];
  access: AccessCache;
  /** What the extensions add (the public service: key usage, registration, PostgreSQL and Redis). */
  extended: ExtensionDeps;
}

/** The fastify app over the running station side (its facade), the stores and the MQTT side's health. */
async function buildHttpApp(core: Core, sources: HttpSources, accessLogger: Logger | undefined): Promise<FastifyInstance> {
  const { config, logger, clock, clockWatch } = core;
  const { station, mqtt } = sources;
  const { features } = station;
  const mqttOn = mqttEnabled(config);
  const uploadCounters = new UploadCounters();
  const connectionCounters = createConnectionCounters();
  const metrics =
    config.http.metrics === 'off'
      ? undefined
      : createMetrics({
          processMetrics: true,
          ...(clockWatch ? { loopTicks: clockWatch.onTick } : {}),
          mqttStats: () => (mqttOn ? mqtt.stats() : undefined),
          uploads: () => uploadCounters.entries(),
          httpConnections: () => connectionCounters,
          stationReadings: () => features.readings.counts(),
          stationMessages: () => station.stationCounts(),
          databasePath: config.db.path,
          clock: () => clockWatch?.stats(),
          sharedStores: sources.extended.sharedServers,
          unitMetrics: unitMetricsOf(features.modules),
        });
  return buildApp({
    config,
    store: sources.store,
    access: sources.access,
    logger,
    accessLogger,
    clock,
    mqttStatus: () => (mqttOn ? mqtt.health() : undefined),
    clockStatus: () => clockWatch?.stats(),
    stations: createStationsView({
      stations: config.stations,
      freshnessMs: (configured) => historyOptionsFor(config, configured).freshnessMs,
      stateOf: (stationId) => station.stationState(stationId),
      series: features.charts,
    }),
    version: packageVersion(),
    acceptReading: station.acceptReading,
    uploadCounters,
    connectionCounters,
    onUploadRefused: (refusal: UploadRefusal) => {
      features.uploadRefusals.record(refusal);
      if (refusal.station !== undefined) station.recompute(refusal.station);
    },
    unitRoutes: features.modules.flatMap((unit) => unit.routes ?? []),
    ...(metrics ? { metrics } : {}),
    ...sources.extended.app,
  });
}

/** Listens on http.host/http.port; returns the address, e.g. "http://127.0.0.1:8080". */
async function listen(app: FastifyInstance, config: AppConfig, logger: Logger): Promise<string> {
  const { port } = await listenHttp(app, config.http).catch((err: unknown) => {
    throw explainListenError(err, 'The HTTP server', config.http, 'Pick another port with MOWABILITY_HTTP_PORT (or http.port).');
  });
  const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
  const address = `http://${host}:${port}`;
  logger.info({ url: address, host: config.http.host, port }, `HTTP server listening on ${address}`);
  return address;
}
