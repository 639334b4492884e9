/**
 * The HTTP app factory: routes, hooks, limits and error handling, without
 * listening and without touching the process. src/daemon.ts listens.
 */
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import { calculate as coreCalculate } from '../core/index.js';
import type { Metrics } from '../metrics/registry.js';
import type { ServiceStore } from '../store/serviceStore.js';
import type { Clock } from '../util/clock.js';
import { registerAccessLog } from './accessLog.js';
import { assertNotBlocked, authorize, authorizeBearer, type AccessView } from './auth.js';
import { registerCalculateRoute, type Calculator } from './calculateRoute.js';
import { createClientAddressResolver, rateLimitKey, type ClientAddressOf } from './clientAddress.js';
import {
  HttpError,
  MESSAGES,
  clientErrorHandler,
  frameworkErrorHandler,
  installErrorHandling,
  type RequestGuard,
} from './errors.js';
import { registerForecastRoute, type ForecastSource } from './forecastRoute.js';
import { createConfigCheck, registerHealthRoutes, type HealthRouteDeps } from './healthRoute.js';
import { registerMetrics } from './metricsRoute.js';
import type { UsageGate } from './quota.js';
import { registerRegistrationRoutes, type RegistrationRouteDeps } from './registrationRoutes.js';
import { registerOpenApi, registerOpenApiRoute, UNKNOWN_VERSION } from './openapi.js';
import { registerStatusPage } from './statusPage.js';
import { NO_STATIONS, type StationsView } from './stationsView.js';
import { applyConnectionCap, applyConnectionShare, connectionShareOptions, serverOptions } from './serverLimits.js';
import { trackConnections } from './shutdown.js';
import { registerUploadRoutes, type AcceptReading, type UploadRefusal } from './uploads.js';
import { UploadCounters } from './uploadsCounters.js';

export interface AppDeps {
  config: AppConfig;
  store: Pick<ServiceStore, 'healthProbe'>;
  access: AccessView;
  logger: Logger;
  /** The access lines' logger (src/util/logger.ts createAccessLogger: written in blocks); omitted: through `logger`. */
  accessLogger?: Logger;
  clock: Clock;
  /** Defaults to the core's calculate(); tests may inject a failing one. */
  calculate?: Calculator;
  /** Defaults to checking the loaded configuration (data directory writable, time zone valid). */
  checkConfig?: HealthRouteDeps['checkConfig'];
  /** The MQTT side's state for /health's `checks.mqtt` (omitted: MQTT off or not wired). */
  mqttStatus?: HealthRouteDeps['mqttStatus'];
  /** The system clock's figures for /health's `checks.clock` (omitted: not shown). */
  clockStatus?: HealthRouteDeps['clockStatus'];
  /** Shared PostgreSQL / Redis for /health (omitted: one instance on SQLite). */
  sharedStores?: HealthRouteDeps['sharedStores'];
  /** Redis for rate-limit counters shared by every instance (http.rateLimitStore; omitted: in memory). */
  rateLimitRedis?: Redis;
  /** Prometheus metrics for GET /metrics (omitted: no metrics, no hook). Access: config.http.metrics. */
  metrics?: Metrics;
  /** The station units' routes (StationUnit.routes, src/station/unit.ts): registered under /v1 behind the API key. */
  unitRoutes?: readonly FastifyPluginAsync[];
  /** Station forecasts for GET /v1/stations/{id}/forecast (omitted: no such route). */
  forecast?: ForecastSource;
  /** The stations for the status page and GET /v1/stations (omitted: none). Access: config.http.statusPage. */
  stations?: StationsView;
  /** How often the status page polls (default 15 s; browser tests make it short). */
  statusPagePollMs?: number;
  /** The product version for /openapi.json's info.version (the daemon passes package.json's). */
  version?: string;
  /** Per-key usage counting and the daily quota on /v1/calculate (omitted: not counted). */
  usage?: UsageGate;
  /** The registration store; the routes exist only when registration.enabled is on. */
  registrations?: RegistrationRouteDeps['store'];
  /** registration.notifyCommand, built by the daemon. */
  onRegistered?: RegistrationRouteDeps['onRegistered'];
  /** Where direct station uploads go (MqttService.acceptReading); omitted: no upload routes. */
  acceptReading?: AcceptReading;
  /** Counts of what became of uploads (shared with /metrics); a fresh one when omitted. */
  uploadCounters?: UploadCounters;
  /** Told of every refused upload (src/station/uploadRefusals.ts keeps them for the state and `mowability status`). */
  onUploadRefused?: (refusal: UploadRefusal) => void;
}

type HttpSettings = AppConfig['http'];

/** What every HTTP log line says about where it comes from. */
const HTTP_BINDINGS = { module: 'http' } as const;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, access } = deps;
  const http = config.http;
  // Set once the rate limiter exists; requests the router rejects run it too.
  let guard: RequestGuard | undefined;
  const httpLogger = deps.logger.child(HTTP_BINDINGS);
  const app = createFastify(http, httpLogger, () => guard);
  applyConnectionCap(app.server, http.maxConnections);
  applyConnectionShare(app.server, connectionShareOptions(http, httpLogger));
  const clientAddressOf = createClientAddressResolver(http.trustProxy);
  installRequestHooks(app, http, access, clientAddressOf);
  registerAccessLog(app, { mode: http.accessLog, logger: httpLogger, lines: deps.accessLogger?.child(HTTP_BINDINGS), clientAddressOf });
  guard = await registerLimitsAndErrorHandling(app, { http, access, clientAddressOf, redis: deps.rateLimitRedis });
  await registerRoutes(app, deps, clientAddressOf);
  return app;
}

/** The fastify instance with its server limits; `guardOf` yields the request guard once it exists. */
function createFastify(http: HttpSettings, httpLogger: Logger, guardOf: () => RequestGuard | undefined): FastifyInstance {
  // Typed as fastify's logger interface, so the instance is a plain FastifyInstance (no cast).
  const logger: FastifyBaseLogger = httpLogger;
  return Fastify({
    loggerInstance: logger,
    // One line per request comes from the onResponse hook below (path without the query string).
    logController: new LogController({ disableRequestLogging: true }),
    // Client addresses come from clientAddressOf (./clientAddress.ts), never from fastify's trustProxy.
    trustProxy: false,
    bodyLimit: http.bodyLimitBytes,
    requestTimeout: http.requestTimeoutMs,
    http: serverOptions(http),
    clientErrorHandler,
    // fastify awaits the promise this handler returns (its type says void).
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    frameworkErrors: frameworkErrorHandler(guardOf, http.bodyLimitBytes),
    connectionTimeout: http.connectionTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Requests that arrive while stopping get our envelope (hook below), not fastify's own 503 body.
    return503OnClosing: false,
  });
}

/** Content types, the stopping hooks, and the blocked-address and Host checks. */
function installRequestHooks(app: FastifyInstance, http: HttpSettings, access: AccessView, clientAddressOf: ClientAddressOf): void {
  // Only JSON and form bodies are part of the contract; fastify would also parse text/plain.
  app.removeContentTypeParser('text/plain');

  // While stopping, close each connection after its response; otherwise a keep-alive
  // socket that was busy when close() began would hold the server open for keepAliveTimeoutMs.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The per-request hooks are callback style: a promise per hook and request costs more than what they check.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // For a bounded stop (src/http/shutdown.ts closeApp).
  trackConnections(app);

  // Refuse new work while stopping; refuse a blocked address everywhere, before anything else runs.
  // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400 (Node's own answer has no body).
  // A synchronous throw here reaches the error handler like a rejected promise would.
  app.addHook('onRequest', (request, _reply, done) => {
    if (closing) throw new HttpError(503, MESSAGES.shuttingDown);
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) throw new HttpError(400, MESSAGES.missingHost);
    assertNotBlocked(clientAddressOf(request), access);
    done();
  });
}

/** The form body parser, the rate limiter and the error handling; returns the guard for requests the router rejects. */
async function registerLimitsAndErrorHandling(
  app: FastifyInstance,
  { http, access, clientAddressOf, redis }: { http: HttpSettings; access: AccessView; clientAddressOf: ClientAddressOf; redis: Redis | undefined },
): Promise<RequestGuard> {
  await app.register(formbody, { bodyLimit: http.bodyLimitBytes });
  let limiter: RequestGuard | undefined;
  if (http.rateLimit.max > 0) {
    await app.register(rateLimit, {
      global: true,
      max: http.rateLimit.max,
      timeWindow: http.rateLimit.timeWindowMs,
      keyGenerator: (request) => rateLimitKey(clientAddressOf(request)),
      errorResponseBuilder: (_request, context) => new HttpError(context.statusCode, MESSAGES.tooManyRequests),
      // Shared counters: the limit holds across instances. Redis away: requests pass (the limit protects, it does not ration).
      ...(redis ? { redis, nameSpace: 'mowability-rate-limit-', skipOnError: true } : {}),
    });
    // Without options this shares the global routes' counters: unknown paths count like any other.
    limiter = app.rateLimit();
  }
  const guard: RequestGuard = async (request, reply) => {
    assertNotBlocked(clientAddressOf(request), access);
    await limiter?.(request, reply);
  };
  installErrorHandling(app, { bodyLimitBytes: http.bodyLimitBytes, notFoundPreHandler: limiter });
  return guard;
}

/** The units' route plugins in one /v1 scope whose hook asks for an API key before anything else runs. */
function unitRoutesScope(plugins: readonly FastifyPluginAsync[], access: AccessView): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (access.maintenance) throw new HttpError(503, MESSAGES.maintenance);
      if (request.headers.authorization !== undefined) authorizeBearer(request, access);
      else authorize(request, access);
    });
    for (const plugin of plugins) await scope.register(plugin);
  };
}

/** The OpenAPI generator, then every route (the generator only sees routes added after it). */
async function registerRoutes(app: FastifyInstance, deps: AppDeps, clientAddressOf: ClientAddressOf): Promise<void> {
  const { config, access } = deps;
  const http = config.http;
  // Before the routes: the generator collects them as they are added.
  await registerOpenApi(app, { bodyLimitBytes: http.bodyLimitBytes, version: deps.version ?? UNKNOWN_VERSION });
  if (deps.metrics) registerMetrics(app, { metrics: deps.metrics, mode: http.metrics, access, clientAddressOf });

  registerHealthRoutes(app, {
    probeDatabase: () => deps.store.healthProbe(),
    checkConfig: deps.checkConfig ?? createConfigCheck(config),
    ...(deps.mqttStatus ? { mqttStatus: deps.mqttStatus } : {}),
    ...(deps.clockStatus ? { clockStatus: deps.clockStatus } : {}),
    ...(deps.sharedStores ? { sharedStores: deps.sharedStores } : {}),
  });
  if (deps.acceptReading) {
    registerUploadRoutes(app, {
      stations: config.stations,
      ecowittPath: http.ecowittUploadPath,
      acceptReading: deps.acceptReading,
      counters: deps.uploadCounters ?? new UploadCounters(),
      logger: deps.logger,
      clientAddressOf,
      now: () => deps.clock.now(),
      ...(deps.onUploadRefused ? { onRefused: deps.onUploadRefused } : {}),
    });
  }
  registerCalculateRoute(app, { config, access, clock: deps.clock, calculate: deps.calculate ?? coreCalculate, ...(deps.usage ? { usage: deps.usage } : {}) });
  if (config.registration.enabled && deps.registrations) {
    registerRegistrationRoutes(app, {
      store: deps.registrations,
      settings: config.registration,
      access,
      clock: deps.clock,
      clientAddressOf,
      ...(deps.onRegistered ? { onRegistered: deps.onRegistered } : {}),
    });
  }
  if (deps.forecast) registerForecastRoute(app, { access, clock: deps.clock, forecastOf: deps.forecast });
  if (deps.unitRoutes?.length) await app.register(unitRoutesScope(deps.unitRoutes, access), { prefix: '/v1' });
  await registerStatusPage(app, {
    mode: http.statusPage,
    view: deps.stations ?? NO_STATIONS,
    access,
    clock: deps.clock,
    ...(deps.statusPagePollMs ? { pollIntervalMs: deps.statusPagePollMs } : {}),
  });
  registerOpenApiRoute(app);
}
