/**
 * The server layer under every route: the fastify instance with the Node
 * server's limits (request and header deadlines, the connection cap and each
 * address's share of it), the client address (decorated as `clientAddressOf`
 * for the plugins), the stopping, blocked-address and Host checks, the access
 * log, the body parsers, the rate limit and the one error handling. The limits
 * protect a small machine from clients that open many connections and send
 * nothing (each holds a file descriptor and memory), and the share keeps one
 * such client from holding every slot while others (a health probe) are turned away.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { TrustProxySetting } from '../config/trustProxy.js';
import { LogThrottle } from '../util/logThrottle.js';
import { registerAccessLog } from './accessLog.js';
import { assertNotBlocked, type AccessView } from './auth.js';
import { canonicalAddress, compileTrust, createClientAddressResolver, rateLimitKey, type ClientAddressOf } from './clientAddress.js';
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
 * Caps open connections: Node closes each connection over the cap right
 * after accepting it, so the ones already open keep being served.
 */
export function applyConnectionCap(server: Server, maxConnections: number): void {
  if (maxConnections > 0) server.maxConnections = maxConnections;
}

export interface ConnectionShareOptions {
  /** Most connections one address (an IPv4 address, an IPv6 /64) may hold at once; 0: no share. */
  perAddress: number;
  /** Peers without a share (trusted reverse proxies: they carry many clients' requests). */
  exempt: (peer: string) => boolean;
  /** Told of each connection closed for being over the share, with the address's key. */
  onRefused?: (key: string) => void;
}

/**
 * Closes a new connection at once when its address (keyed like the rate limit:
 * IPv4 address, IPv6 /64) already holds `perAddress` open connections. The
 * connections it holds keep being served; the others' slots stay free.
 */
export function applyConnectionShare(server: Server, options: ConnectionShareOptions): void {
  if (options.perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? '';
    const peer = canonicalAddress(remote) ?? remote;
    if (options.exempt(peer)) return;
    const key = rateLimitKey(peer);
    const count = (open.get(key) ?? 0) + 1;
    if (count > options.perAddress) {
      socket.destroy();
      options.onRefused?.(key);
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** The share as configured: trusted proxies exempt, each refusal logged at most once a minute per address. */
export function connectionShareOptions(http: { maxConnectionsPerAddress: number; trustProxy: TrustProxySetting }, log: Logger): ConnectionShareOptions {
  const trust = compileTrust(http.trustProxy);
  const throttle = new LogThrottle(log);
  return {
    perAddress: http.maxConnectionsPerAddress,
    exempt: (peer) => trust?.(peer, 0) ?? false,
    onRefused: (key) =>
      throttle.warn(`connection-share:${key}`, { clientAddress: key, limit: http.maxConnectionsPerAddress }, 'HTTP connection closed: this address already holds http.maxConnectionsPerAddress connections'),
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
}

/** The fastify instance with everything that runs before and around a route; no route yet. */
export async function createServer({ http, access, logger, accessLogger, rateLimitRedis }: ServerLayerOptions): Promise<FastifyInstance> {
  // Set once the rate limiter exists; requests the router rejects run it too.
  let guard: RequestGuard | undefined;
  const httpLogger = logger.child(HTTP_BINDINGS);
  const app = createFastify(http, httpLogger, () => guard);
  applyConnectionCap(app.server, http.maxConnections);
  parkDeadlineChecksWhileIdle(app.server);
  applyConnectionShare(app.server, connectionShareOptions(http, httpLogger));
  const clientAddressOf = createClientAddressResolver(http.trustProxy);
  app.decorate('clientAddressOf', clientAddressOf);
  installRequestHooks(app, http, access, clientAddressOf);
  registerAccessLog(app, { mode: http.accessLog, logger: httpLogger, lines: accessLogger?.child(HTTP_BINDINGS), clientAddressOf });
  guard = await registerLimitsAndErrorHandling(app, { http, access, clientAddressOf, redis: rateLimitRedis });
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
    // Each request's logger is made only when the request logs (most never do).
    childLoggerFactory: lazyRequestLogger,
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
