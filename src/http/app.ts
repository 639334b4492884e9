/**
 * The HTTP app factory: the server layer (./server.ts) and then one fastify
 * plugin per area, without listening and without touching the process.
 * src/daemon.ts listens. Every route under /v1 sits in one scope whose key
 * hook (./auth.ts) admits each request; a route there needs a key unless it
 * says otherwise (its `config.access`).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import { calculate as coreCalculate } from '../core/index.js';
import type { ServiceStore } from '../store/serviceStore.js';
import type { Clock, MonotonicClock } from '../util/clock.js';
import { apiKeys, type AccessView, type ApiKeysOptions, type UsageGate } from './auth.js';
import { calculatePlugin, type Calculator } from './calculateRoute.js';
import { createConfigCheck, healthPlugin, type HealthRouteDeps } from './healthRoute.js';
import { metricsPlugin, type RequestMetrics } from './metricsRoute.js';
import { openApiPlugin, UNKNOWN_VERSION } from './openapi.js';
import { API_PREFIX } from './paths.js';
import type { ConnectionCounters } from './connectionCounters.js';
import { createServer } from './server.js';
import { planCalendarPlugin } from './planRoute.js';
import { stationsPlugin } from './stationsRoute.js';
import { NO_STATIONS, type StationsView } from './stationsView.js';
import { statusPagePlugin } from './statusPage.js';
import type { AcceptReading } from '../station/facade.js';
import { uploadsPlugin, type UploadRefusal } from './uploads.js';
import { UploadCounters } from './uploadsCounters.js';
import { unitRoutesPlugin } from './unitRoutes.js';
import type { UnitRoute } from '../station/unitRoute.js';

/** A plugin whose routes live in the /v1 scope (a station unit's routes): protected by the key hook unless a route says otherwise. */
export type ApiRoutePlugin = FastifyPluginAsync | FastifyPluginCallback;

/** What every install has: the calculation, health, the status page, and the station side's views. */
export interface HomeDeps {
  config: AppConfig;
  store: Pick<ServiceStore, 'healthProbe'>;
  access: AccessView;
  logger: Logger;
  clock: Clock;
  /** Defaults to the core's calculate(); tests may inject a failing one. */
  calculate?: Calculator;
  /** Defaults to checking the loaded configuration (data directory writable, time zone valid). */
  checkConfig?: HealthRouteDeps['checkConfig'];
  /** The MQTT side's state for /health's `checks.mqtt` (omitted: MQTT off or not wired). */
  mqttStatus?: HealthRouteDeps['mqttStatus'];
  /** The system clock's figures for /health's `checks.clock` (omitted: not shown). */
  clockStatus?: HealthRouteDeps['clockStatus'];
  /** Monotonic time for health's cache and limit (default performance.now; tests drive it). */
  healthClock?: MonotonicClock;
  /** Prometheus metrics for GET /metrics (omitted: no metrics, no hook). Access: config.http.metrics. */
  metrics?: RequestMetrics;
  /** The stations for the status page and GET /v1/stations (omitted: none). Access: config.http.statusPage. */
  stations?: StationsView;
  /** How often the status page polls (default 15 s; browser tests make it short). */
  statusPagePollMs?: number;
  /** The product version for /openapi.json's info.version (the daemon passes package.json's). */
  version?: string;
  /** Where direct station uploads go (the station side's acceptReading, src/station/facade.ts); omitted: no upload routes. */
  acceptReading?: AcceptReading;
  /** Counts of what became of uploads (shared with /metrics); a fresh one when omitted. */
  uploadCounters?: UploadCounters;
  /** Told of every refused upload (src/station/uploadRefusals.ts keeps them for the state and `mowability status`). */
  onUploadRefused?: (refusal: UploadRefusal) => void;
  /** The station units' routes (src/station/unitRoute.ts), mounted in the /v1 scope (they need a key unless they say otherwise). */
  unitRoutes?: readonly UnitRoute[];
}

/** The public service (src/publicService/): keys for strangers, their daily quota, and registration; a home install has none. */
export interface PublicServiceDeps {
  /** Per-key usage counting and the daily quota on /v1/calculate (omitted: not counted). */
  usage?: UsageGate;
  /** Its routes in the /v1 scope, after the calculation (registration, when registration.enabled is on). */
  publicRoutes?: readonly ApiRoutePlugin[];
}

/** Several instances and busy servers. */
export interface TuningDeps {
  /** The access lines' logger (src/util/logger.ts createAccessLogger: written in blocks); omitted: through `logger`. */
  accessLogger?: Logger;
  /** Shared PostgreSQL / Redis for /health (omitted: one instance on SQLite). */
  sharedStores?: HealthRouteDeps['sharedStores'];
  /** Redis for rate-limit counters shared by every instance (http.rateLimitStore; omitted: in memory). */
  rateLimitRedis?: Redis;
  /** What the connection pool and the pipelining bound did (shared with /metrics); a fresh one when omitted. */
  connectionCounters?: ConnectionCounters;
}

export type AppDeps = HomeDeps & PublicServiceDeps & TuningDeps;

/** One plugin with its options, registered on the instance it is given (fastify-plugin metadata decides where it lands). */
type PluginEntry = (app: FastifyInstance) => PromiseLike<unknown>;

function use<O extends FastifyPluginOptions>(plugin: FastifyPluginAsync<O> | FastifyPluginCallback<O>, options: O): PluginEntry {
  return (app) => app.register(plugin as FastifyPluginAsync<O>, options);
}

async function registerAll(app: FastifyInstance, plugins: readonly PluginEntry[]): Promise<void> {
  for (const register of plugins) await register(app);
}

interface ApiScopeOptions extends FastifyPluginOptions {
  keys: ApiKeysOptions;
  plugins: readonly PluginEntry[];
}

/** The /v1 scope (registered with that prefix): the key hook first, so it covers every route the listed plugins add. Encapsulated: the hook stays in /v1. */
async function apiScope(scope: FastifyInstance, { keys, plugins }: ApiScopeOptions): Promise<void> {
  await scope.register(apiKeys, keys);
  await registerAll(scope, plugins);
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, access, clock } = deps;
  const http = config.http;
  const app = await createServer({
    http,
    access,
    logger: deps.logger,
    accessLogger: deps.accessLogger,
    rateLimitRedis: deps.rateLimitRedis,
    connectionCounters: deps.connectionCounters,
  });
  await registerAll(app, [
    // First: the generator only sees routes added after it.
    use(openApiPlugin, { bodyLimitBytes: http.bodyLimitBytes, version: deps.version ?? UNKNOWN_VERSION }),
    ...(deps.metrics ? [use(metricsPlugin, { metrics: deps.metrics, mode: http.metrics, access })] : []),
    use(healthPlugin, {
      probeDatabase: () => deps.store.healthProbe(),
      checkConfig: deps.checkConfig ?? createConfigCheck(config),
      ...(deps.mqttStatus ? { mqttStatus: deps.mqttStatus } : {}),
      ...(deps.clockStatus ? { clockStatus: deps.clockStatus } : {}),
      ...(deps.sharedStores ? { sharedStores: deps.sharedStores } : {}),
      cacheMs: http.healthCacheMs,
      checkTimeoutMs: http.healthCheckTimeoutMs,
      rateLimit: http.healthRateLimit,
      maintenance: () => access.maintenance,
      ...(deps.healthClock ? { now: () => deps.healthClock!.now() } : {}),
    }),
    ...(deps.acceptReading ? [uploads(deps, deps.acceptReading)] : []),
    use(apiScope, { prefix: API_PREFIX, keys: { access, clock, ...(deps.usage ? { usage: deps.usage } : {}) }, plugins: apiPlugins(deps) }),
    use(statusPagePlugin, { mode: http.statusPage, ...(deps.statusPagePollMs ? { pollIntervalMs: deps.statusPagePollMs } : {}) }),
  ]);
  return app;
}

/** The routes under /v1, in the order /openapi.json lists them. */
function apiPlugins(deps: AppDeps): PluginEntry[] {
  const { config, clock } = deps;
  return [
    use(calculatePlugin, { config, clock, calculate: deps.calculate ?? coreCalculate }),
    ...(deps.publicRoutes ?? []).map((plugin) => use(plugin, {})),
    use(stationsPlugin, { mode: config.http.statusPage, view: deps.stations ?? NO_STATIONS, clock }),
    use(planCalendarPlugin, { mode: config.http.statusPage, view: deps.stations ?? NO_STATIONS, timeZone: config.timezone }),
    ...(deps.unitRoutes && deps.unitRoutes.length > 0 ? [use(unitRoutesPlugin(deps.unitRoutes), {})] : []),
  ];
}

function uploads(deps: AppDeps, acceptReading: AcceptReading): PluginEntry {
  const { config } = deps;
  return use(uploadsPlugin, {
    stations: config.stations,
    ecowittPath: config.http.ecowittUploadPath,
    acceptReading,
    counters: deps.uploadCounters ?? new UploadCounters(),
    logger: deps.logger,
    now: () => deps.clock.now(),
    ...(deps.onUploadRefused ? { onRefused: deps.onUploadRefused } : {}),
  });
}
