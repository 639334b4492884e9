/**
 * The server layer under every route: the fastify instance with the Node
 * server's limits (request and header deadlines, the connection cap and each
 * address's share of it), the client address (decorated as `clientAddressOf`
 * for the plugins), the stopping, blocked-address and Host checks, the access
 * log, the body parsers, the rate limit and the one error handling. The limits
 * protect a small machine from clients that open many connections and send
 * nothing (each holds a file descriptor and memory); the connection pool
 * (./connectionPool.ts: share, reserve, idle connections giving way) keeps a few
 * such clients from holding every slot while others (a health probe) are turned
 * away, and the pipelining bound (./pipelineBound.ts) keeps one connection from
 * queuing thousands of answers nobody reads.
 */
import { createServer as createHttpServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import { LogThrottle } from '../util/logThrottle.js';
import { registerAccessLog } from './accessLog.js';
import { assertNotBlocked, type AccessView } from './auth.js';
import {
  canonicalAddress,
  compileTrust,
  createClientAddressResolver,
  prefixKey,
  rateLimitKey,
  type ClientAddressOf,
} from './clientAddress.js';
import { assertIngressAllowed, ingressProxyAddresses } from './ingress.js';
import { createConnectionCounters, type ConnectionCounters } from './connectionCounters.js';
import { ConnectionPool, type ConnectionPoolOptions } from './connectionPool.js';
import { boundPipelining } from './pipelineBound.js';
import { MESSAGES, clientErrorHandler, frameworkErrorHandler, installErrorHandling, type RequestGuard } from './errors.js';
import { HttpError } from '../util/httpError.js';
import { parkDeadlineChecksWhileIdle } from './deadlineChecks.js';
import { lazyRequestLogger } from './requestLogger.js';
import { trackConnections } from './shutdown.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The client's address (http.trustProxy applied), resolved once per request (./clientAddress.ts). */
    clientAddressOf: ClientAddressOf;
  }
}

export interface ServerLimitSettings {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  maxConnections: number;
}

/** Node's upper bound for checking deadlines; finer when the deadlines are short. */
const MAX_CHECK_INTERVAL_MS = 30_000;
const MIN_CHECK_INTERVAL_MS = 100;

/**
 * Options for http.createServer. Node 20 enforces the deadlines only when they
 * are given at construction, checked every connectionsCheckingInterval (a
 * quarter of the shorter deadline here). headersTimeout must not exceed
 * requestTimeout (Node throws), so it is capped by it. requireHostHeader is
 * off because Node would answer a missing Host with an empty 400; the app
 * answers it with the error envelope instead.
 */
export function serverOptions(settings: Pick<ServerLimitSettings, 'requestTimeoutMs' | 'headersTimeoutMs'>): ServerOptions {
  const { requestTimeoutMs } = settings;
  const headersTimeout = requestTimeoutMs > 0 ? Math.min(settings.headersTimeoutMs, requestTimeoutMs) : settings.headersTimeoutMs;
  const shortest = requestTimeoutMs > 0 ? Math.min(requestTimeoutMs, headersTimeout) : headersTimeout;
  return {
    ...(requestTimeoutMs > 0 ? { requestTimeout: requestTimeoutMs } : {}),
    headersTimeout,
    connectionsCheckingInterval: Math.max(MIN_CHECK_INTERVAL_MS, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shortest / 4))),
    requireHostHeader: false,
  };
}

/**
 * Node's own cap, kept as a backstop at twice the pool's: the pool (./connectionPool.ts) holds the
 * cap itself (it must see a new connection to close an idle one for it), and a connection it has
 * closed still counts for Node until its close event.
 */
export function backstopConnectionCap(server: Server, maxConnections: number): void {
  if (maxConnections > 0) server.maxConnections = 2 * maxConnections;
}

/** The pool as configured: clients keyed like the rate limit (IPv6 by http.ipv6SharePrefix), trusted proxies exempt, refusals counted and logged at most once a minute per client. */
export function connectionPoolOptions(
  http: Pick<HttpSettings, 'maxConnections' | 'maxConnectionsPerAddress' | 'connectionReserve' | 'ipv6SharePrefix' | 'trustProxy'>,
  log: Logger,
  counters: ConnectionCounters,
): ConnectionPoolOptions {
  const trust = compileTrust(http.trustProxy);
  const throttle = new LogThrottle(log);
  const prefix = { ipv4: 32, ipv6: http.ipv6SharePrefix };
  return {
    maxConnections: http.maxConnections,
    perAddress: http.maxConnectionsPerAddress,
    reserve: http.maxConnections > 0 ? http.connectionReserve : 0,
    clientOf: (peer) => prefixKey(peer, prefix),
    exempt: (peer) => trust?.(peer, 0) ?? false,
    onRefused: (client, why) => {
      counters.refused[why]++;
      if (why === 'share') {
        throttle.warn(
          `connection-share:${client}`,
          { clientAddress: client, limit: http.maxConnectionsPerAddress },
          'HTTP connection closed: this address already holds http.maxConnectionsPerAddress connections, none of them idle',
        );
      } else {
        throttle.warn(
          'connection-cap',
          { clientAddress: client, limit: http.maxConnections },
          'HTTP connection closed: http.maxConnections connections are open and none is idle (or only http.connectionReserve is left, kept for clients holding none)',
        );
      }
    },
    onEvicted: (client, why) => {
      counters.evicted[why]++;
      if (why === 'share') {
        throttle.warn(
          `connection-share:${client}`,
          { clientAddress: client, limit: http.maxConnectionsPerAddress },
          'HTTP connection closed: this address opened more than http.maxConnectionsPerAddress connections; its oldest idle one gave way',
        );
      } else {
        throttle.warn(
          'connection-pressure',
          { limit: http.maxConnections, reserve: http.connectionReserve },
          'HTTP connections are nearly all taken (http.maxConnections, http.connectionReserve): the oldest idle ones give way to new ones',
        );
      }
    },
  };
}

type HttpSettings = AppConfig['http'];

/** What every HTTP log line says about where it comes from. */
const HTTP_BINDINGS = { module: 'http' } as const;

export interface ServerLayerOptions {
  http: HttpSettings;
  access: AccessView;
  logger: Logger;
  /** The access lines' logger (src/util/logger.ts createAccessLogger: written in blocks); omitted: through `logger`. */
  accessLogger?: Logger | undefined;
  /** Redis for rate-limit counters shared by every instance (http.rateLimitStore; omitted: in memory). */
  rateLimitRedis?: Redis | undefined;
  /** What the connection pool and the pipelining bound did (shared with /metrics); a fresh one when omitted. */
  connectionCounters?: ConnectionCounters | undefined;
}

/** The fastify instance with everything that runs before and around a route; no route yet. */
export async function createServer({
  http,
  access,
  logger,
  accessLogger,
  rateLimitRedis,
  connectionCounters,
}: ServerLayerOptions): Promise<FastifyInstance> {
  // Set once the rate limiter exists; requests the router rejects run it too.
  let guard: RequestGuard | undefined;
  const httpLogger = logger.child(HTTP_BINDINGS);
  const counters = connectionCounters ?? createConnectionCounters();
  const pool = new ConnectionPool(connectionPoolOptions(http, httpLogger, counters));
  const bound = (handler: RequestListener) =>
    boundPipelining(handler, {
      limit: http.maxPipelinedRequests,
      counters,
      busy: (socket) => pool.busy(socket),
      idle: (socket) => pool.idle(socket),
    });
  const app = createFastify(http, httpLogger, () => guard, bound);
  backstopConnectionCap(app.server, http.maxConnections);
  closeServerOnClose(app);
  // 24 fewer wake-ups a minute of the idle daemon, 87 → 63 (bench/NOTES.md, "the idle deadline check").
  parkDeadlineChecksWhileIdle(app.server);
  app.server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? '';
    pool.admit(socket, canonicalAddress(remote) ?? remote);
  });
  const clientAddressOf = createClientAddressResolver(http.trustProxy);
  app.decorate('clientAddressOf', clientAddressOf);
  installRequestHooks(app, http, access, clientAddressOf);
  registerAccessLog(app, {
    mode: http.accessLog,
    sample: http.accessLogSample,
    logger: httpLogger,
    lines: accessLogger?.child(HTTP_BINDINGS),
    clientAddressOf,
  });
  guard = await registerLimitsAndErrorHandling(app, { http, access, clientAddressOf, redis: rateLimitRedis });
  return app;
}

/**
 * The Node server fastify serves on: its deadlines (./serverOptions), and every request through
 * `wrap` (the pipelining bound). fastify's serverFactory skips what it would set itself, so the
 * timeouts are set here as fastify sets them (lib/server.js getServerInstance).
 */
function createNodeServer(http: HttpSettings, handler: RequestListener): Server {
  const server = createHttpServer(serverOptions(http), handler);
  server.keepAliveTimeout = http.keepAliveTimeoutMs;
  server.requestTimeout = http.requestTimeoutMs;
  server.setTimeout(http.connectionTimeoutMs);
  return server;
}

/**
 * fastify closes a server of its serverFactory only when its own listen() bound it (fastify.js, the
 * onClose hook); listenHttp (./listen.ts) binds app.server itself, so app.close() closes it here.
 * Node's close() closes the idle keep-alive connections and waits for the busy ones, as before.
 */
function closeServerOnClose(app: FastifyInstance): void {
  app.addHook('onClose', (_instance, done) => {
    if (!app.server.listening) return done();
    app.server.close(() => done());
  });
}

/** The fastify instance with its server limits; `guardOf` yields the request guard once it exists. */
function createFastify(
  http: HttpSettings,
  httpLogger: Logger,
  guardOf: () => RequestGuard | undefined,
  wrap: (handler: RequestListener) => RequestListener,
): FastifyInstance {
  // Typed as fastify's logger interface, so the instance is a plain FastifyInstance (no cast).
  const logger: FastifyBaseLogger = httpLogger;
  return Fastify({
    loggerInstance: logger,
    // One line per request comes from the onResponse hook below (path without the query string).
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's logger is made only when the request logs (most never do).
    childLoggerFactory: lazyRequestLogger,
    // Client addresses come from clientAddressOf (./clientAddress.ts), never from fastify's trustProxy.
    trustProxy: false,
    bodyLimit: http.bodyLimitBytes,
    requestTimeout: http.requestTimeoutMs,
    serverFactory: (handler) => createNodeServer(http, wrap(handler)),
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

/** Content types, the stopping hooks, and the blocked-address, Host and ingress checks. */
function installRequestHooks(app: FastifyInstance, http: HttpSettings, access: AccessView, clientAddressOf: ClientAddressOf): void {
  // Only JSON and form bodies are part of docs/api.md; fastify would also parse text/plain.
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
  // Home Assistant's ingress header only from its proxy (./ingress.ts); absent from a hand-built configuration: nobody.
  const ingressProxies = ingressProxyAddresses(http.ingressProxy ?? '');

  // Refuse new work while stopping; refuse a blocked address everywhere, before anything else runs.
  // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400 (Node's own answer has no body).
  // A synchronous throw here reaches the error handler like a rejected promise would.
  app.addHook('onRequest', (request, _reply, done) => {
    if (closing) throw new HttpError(503, MESSAGES.shuttingDown);
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) throw new HttpError(400, MESSAGES.missingHost);
    assertNotBlocked(clientAddressOf(request), access);
    assertIngressAllowed(request, ingressProxies);
    done();
  });
}

/** The form body parser, the rate limiter and the error handling; returns the guard for requests the router rejects. */
async function registerLimitsAndErrorHandling(
  app: FastifyInstance,
  {
    http,
    access,
    clientAddressOf,
    redis,
  }: { http: HttpSettings; access: AccessView; clientAddressOf: ClientAddressOf; redis: Redis | undefined },
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
