/**
 * The composition root. startDaemon() starts an ordered list of lifecycle
 * components and stops them in reverse order. Nothing happens at import.
 *
 * To add a part, add a component to daemonComponents(): it receives the
 * DaemonRuntime, whose database, store and access cache are available from
 * its start() on (they are started earlier). A feature that knows more about
 * a station (forecast, lawn memory, quiet hours) is a StationUnit: build it in
 * stationUnits() below. docs/architecture.md has the map.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config/schema.js';
import { deprecatedSettingsOf } from './config/load.js';
import { deprecationMessage } from './config/settingAliases.js';
import { createForecastUnit, forecastSource } from './forecast/compose.js';
import { createGapFillUnit, createModelledUnit } from './modelled/compose.js';
import type { ForecastSource } from './http/forecastRoute.js';
import { buildApp } from './http/app.js';
import { statusPageSources, type StationsView } from './http/stationsView.js';
import { listenHttp } from './http/listen.js';
import { closeApp } from './http/shutdown.js';
import { createMetrics } from './metrics/registry.js';
import { StationReadingCounter } from './metrics/stationReadings.js';
import type { IngestCounters } from './station/stationIngest.js';
import type { AcceptReading, UploadRefusal } from './http/uploads.js';
import { UploadRefusals } from './station/uploadRefusals.js';
import { UploadCounters } from './http/uploadsCounters.js';
import { RegistrationStore } from './store/registrationStore.js';
import { registrationNotifier } from './http/registrationRoutes.js';
import { Database } from './store/database.js';
import { MQTT_STARTING, type MqttHealth } from './mqtt/health.js';
import { createMqttService, type MqttService, type MqttServiceOptions, type MqttStats } from './mqtt/service.js';
import { mqttEnabled } from './mqtt/settings.js';
import type { StationUnit } from './station/unit.js';
import { lawnMemoryUnits } from './lawn/buildLawnUnit.js';
import { monotonicClock, systemClock, type Clock, type MonotonicClock } from './util/clock.js';
import { ClockWatch } from './util/clockWatch.js';
import { readClockSync } from './util/clockSync.js';
import { startInOrder, type LifecycleComponent, type StartedComponents } from './util/lifecycle.js';
import { MutableRuntime, type DaemonRuntime } from './daemonRuntime.js';
import { accessCacheComponent, databaseComponent, keyUsageComponent, serveLockComponent, type UsageHolder } from './daemonStorage.js';
import { sharedAppDeps, sharedComponents, type SharedParts } from './daemonShared.js';
import type { UsageGate } from './http/auth.js';
export type { DaemonRuntime } from './daemonRuntime.js';
import { explainListenError } from './util/listenError.js';
import { packageHomepage, packageVersion } from './util/packageVersion.js';


export interface DaemonOptions {
  config: AppConfig;
  logger: Logger;
  /** The HTTP access lines' logger (createAccessLogger: written in blocks); omitted: they go through `logger`. */
  accessLogger?: Logger;
  clock?: Clock;
  /** With `clock`: the monotonic clock clock steps are measured against (without it, an injected clock is not watched). */
  monotonic?: MonotonicClock;
  /** Shell command that creates a key for this daemon's database (shown when none exists). */
  keyCommandHint?: string;
}

export interface RunningDaemon {
  /** Stops every component in reverse start order. Idempotent. */
  stop(): Promise<void>;
  readonly httpAddress: string;
  /** The station side (pipeline, broker, bridge): its counters, broker port and flush, e.g. for the benchmarks. */
  readonly stationSide: MqttService | undefined;
}

interface HttpSources {
  mqttStatus: () => MqttHealth | undefined;
  mqttStats: () => MqttStats | undefined;
  usage: () => UsageGate | undefined;
  shared: SharedParts;
  acceptReading: AcceptReading;
  readings: StationReadingCounter;
  onUploadRefused: (refusal: UploadRefusal) => void;
  stationMessages: () => ReadonlyMap<string, Readonly<IngestCounters>>;
  forecast: ForecastSource;
  stations: StationsView;
}

function httpComponent(runtime: MutableRuntime, sources: HttpSources, accessLogger: Logger | undefined): LifecycleComponent {
  let app: FastifyInstance | undefined;
  return {
    name: 'http',
    async start() {
      const { config } = runtime;
      const uploadCounters = new UploadCounters();
      const metrics =
        config.http.metrics === 'off'
          ? undefined
          : createMetrics({
              processMetrics: true,
              mqttStats: sources.mqttStats,
              uploads: () => uploadCounters.entries(),
              stationReadings: () => sources.readings.counts(),
              stationMessages: sources.stationMessages,
              databasePath: config.db.path,
              clock: () => runtime.clockWatch?.stats(),
            });
      app = await buildApp({
        config,
        ...sharedAppDeps(runtime, sources.shared),
        access: runtime.access,
        logger: runtime.logger,
        accessLogger,
        clock: runtime.clock,
        mqttStatus: sources.mqttStatus,
        clockStatus: () => runtime.clockWatch?.stats(),
        forecast: sources.forecast,
        stations: sources.stations,
        version: packageVersion(),
        usage: sources.usage(),
        registrations: new RegistrationStore(runtime.serviceDatabase),
        onRegistered: registrationNotifier(config.registration.notifyCommand, runtime.logger),
        acceptReading: sources.acceptReading,
        uploadCounters,
        onUploadRefused: sources.onUploadRefused,
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

/**
 * The station units (src/station/unit.ts), in the order the pipeline asks them, after the built-in
 * irrigation source. The one place a new station feature is built: add it to this array. Called
 * when the station side starts, so `runtime.database` and `runtime.store` are available.
 */
export function stationUnits(
  runtime: DaemonRuntime,
  shared: { readings: StationReadingCounter; forecast: StationUnit; recorder: StationUnit; uploadRefusals: StationUnit; modelled?: StationUnit; gapFill?: StationUnit },
): StationUnit[] {
  return [
    shared.readings,
    // Refused uploads in the state and for `mowability status` (src/station/uploadRefusals.ts).
    shared.uploadRefusals,
    // Modelled stations (src/modelled/): Open-Meteo's readings through acceptReading, state `origin`.
    ...(shared.modelled ? [shared.modelled] : []),
    // The status page's chart series (src/http/stationsRecorder.ts).
    shared.recorder,
    // Lawn memory (src/lawn/): blade and soil water, growth since the last cut, quiet hours.
    ...lawnMemoryUnits(runtime.config, runtime.database, runtime.logger, runtime.clock),
    // Gap filling (src/modelled/gapFill.ts): after the lawn memory, so its soil estimate comes first.
    ...(shared.gapFill ? [shared.gapFill] : []),
    // After the lawn memory and gap filling: the forecast starts from the input they extended (the blade water, docs/model.md).
    shared.forecast,
  ];
}

/** What the station side needs from the composition root (the DaemonRuntime satisfies it; so does the test harness). */
export interface StationSideDeps {
  readonly config: MqttServiceOptions['config'];
  readonly logger: Logger;
  readonly clock: Clock;
  readonly database: Database;
  readonly clockWatch?: ClockWatch | undefined;
  /** The monotonic clock when the clock is watched (else the wall clock counts as steady). */
  readonly monotonic?: MonotonicClock | undefined;
}

/** The station side once built; undefined before its component starts (HTTP starts earlier). */
export interface StationSideRef {
  current: MqttService | undefined;
  /** Every part of the station side has started (the embedded broker listens). */
  started?: boolean;
}

/**
 * The station pipeline and the MQTT side, built when their component starts (the database is
 * open by then) and started in order by startInOrder, so a part that fails stops the ones before.
 */
export function stationSideComponent(deps: StationSideDeps, units: () => readonly StationUnit[], ref: StationSideRef): LifecycleComponent {
  let started: StartedComponents | undefined;
  return {
    name: 'station-side',
    async start() {
      // The product's version (not the MFI spec version) for HA's device sw_version and the bridge's Version entity;
      // its homepage, once package.json names one, as the discovery origin's support_url.
      const side = createMqttService({
        config: deps.config,
        database: deps.database,
        logger: deps.logger,
        clock: deps.clock,
        softwareVersion: packageVersion(),
        supportUrl: packageHomepage(),
        units: units(),
        clockWatch: deps.clockWatch,
        monotonic: deps.monotonic,
      });
      ref.current = side;
      started = await startInOrder(side.components, deps.logger);
      ref.started = true;
    },
    async stop() {
      await started?.stop();
      started = undefined;
    },
  };
}

/** The daemon's parts in start order. */
export function daemonComponents(
  runtime: MutableRuntime,
  options: { keyCommandHint: string; side?: StationSideRef; accessLogger?: Logger },
): LifecycleComponent[] {
  // HTTP routes that feed or read the stations (uploads, a status page) use side.current
  // (acceptReading, stationState): it is set once the station side has started.
  const side: StationSideRef = options.side ?? { current: undefined };
  const usageHolder: UsageHolder = {};
  const shared: SharedParts = {};
  const readings = new StationReadingCounter();
  // Direct uploads (src/http/uploads.ts) enter the station pipeline; before it has started they are counted and dropped.
  const acceptReading: AcceptReading = (stationId, reading, origin) => side.current?.acceptReading(stationId, reading, origin) ?? 'not_running';
  const uploadRefusals = new UploadRefusals({ database: () => runtime.database, logger: runtime.logger, now: () => runtime.clock.now(), saveIntervalMs: runtime.config.history.flushIntervalSeconds * 1000 });
  const onUploadRefused = (refusal: UploadRefusal): void => {
    uploadRefusals.record(refusal);
    if (refusal.station !== undefined) side.current?.recompute(refusal.station);
  };
  // HTTP starts first; until the station side has started, health says so.
  // The forecast unit (src/forecast/): state, hold and entities through the station units; GET /v1/stations/{id}/forecast through buildApp.
  const forecast = createForecastUnit({ config: runtime.config, database: () => runtime.database, logger: runtime.logger, clock: runtime.clock, version: packageVersion() });
  const modelled = createModelledUnit({ config: runtime.config, logger: runtime.logger, clock: runtime.clock, version: packageVersion(), accept: acceptReading, forecast });
  const gapFill = createGapFillUnit({ config: runtime.config, logger: runtime.logger, clock: runtime.clock, version: packageVersion(), accept: acceptReading, forecast });
  // Status page (src/http/statusPage.ts): a recorder unit on the station side, a read view for the HTTP side.
  const statusPage = statusPageSources(runtime.config, (stationId) => side.current?.stationState(stationId), () => runtime.database);
  const mqttStatus = (): MqttHealth | undefined =>
    mqttEnabled(runtime.config) ? (side.current && side.started ? side.current.health() : MQTT_STARTING) : undefined;
  const mqttStats = (): MqttStats | undefined => (mqttEnabled(runtime.config) ? side.current?.stats() : undefined);
  return [
    ...(runtime.clockWatch ? [runtime.clockWatch] : []),
    serveLockComponent(runtime),
    databaseComponent(runtime),
    // store.kind postgres, http.rateLimitStore: the servers several instances share (none for a home install).
    ...sharedComponents(runtime, shared),
    accessCacheComponent(runtime, options.keyCommandHint),
    keyUsageComponent(runtime, usageHolder),
    httpComponent(runtime, {
      mqttStatus,
      mqttStats,
      usage: () => usageHolder.usage,
      shared,
      acceptReading,
      readings,
      onUploadRefused,
      stationMessages: () => side.current?.stationCounts() ?? new Map<string, IngestCounters>(),
      forecast: forecastSource(forecast, runtime.config, () => side.current !== undefined),
      stations: statusPage.view,
    }, options.accessLogger),
    stationSideComponent(runtime, () => stationUnits(runtime, { readings, forecast, recorder: statusPage.recorder, uploadRefusals, modelled, gapFill }), side),
  ];
}

/** One warning line per old setting name the configuration was loaded with (src/config/settingAliases.ts). */
export function logDeprecatedSettings(config: AppConfig, logger: Logger): void {
  for (const use of deprecatedSettingsOf(config)) logger.warn({ setting: use.used, instead: use.instead }, deprecationMessage(use));
}

export async function startDaemon(options: DaemonOptions): Promise<RunningDaemon> {
  const logger = options.logger;
  logDeprecatedSettings(options.config, logger);
  const clock = options.clock ?? systemClock;
  // An injected clock without a monotonic one is a test driving time by hand: its jumps are not steps.
  const watch = options.clock === undefined || options.monotonic !== undefined;
  const monotonic = watch ? (options.monotonic ?? monotonicClock) : undefined;
  const clockWatch = monotonic && new ClockWatch({ wall: clock, monotonic, logger, readSync: () => readClockSync(options.config.clock.syncMarkerPath) });
  const runtime = new MutableRuntime(options.config, logger, clock, clockWatch, monotonic);
  const side: StationSideRef = { current: undefined };
  const components = daemonComponents(runtime, {
    keyCommandHint: options.keyCommandHint ?? 'npx mowability keys add <owner>',
    side,
    accessLogger: options.accessLogger,
  });
  const started = await startInOrder(components, logger);
  let stopping: Promise<void> | undefined;
  return {
    httpAddress: runtime.httpAddress,
    stationSide: side.current,
    stop: () => (stopping ??= started.stop().then(() => logger.info('daemon stopped'))),
  };
}

