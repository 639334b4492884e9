/**
 * The access log: one line per request (http.accessLog). Registered only when
 * the line would be written, so "debug" under the shipped info level and
 * "off" cost nothing per request; the decision is taken once, at start.
 * Error lines (unexpected errors, 5xx) come from ./errors.ts and do not
 * depend on this setting. A public service may write one answered request's
 * line in N (http.accessLogSample); every request answered 400 or above is
 * written.
 *
 * The line goes through one logger made at start, without the redaction
 * paths: none of its fields can carry a key (the path is a route pattern, or a
 * path without its query string and with its secret-looking segments replaced:
 * ./loggedPath.ts), and walking the paths on every line cost
 * more than writing it. The daemon gives it a logger that writes in blocks
 * (one write() per ~20 lines) instead of one system call per request. It
 * carries the request id as the request's own logger would, so the line
 * reads exactly as before.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AccessLogMode } from '../config/serviceSchema.js';
import { loggedPath } from './loggedPath.js';
import { STATIONS_PATH } from './stationsRoute.js';

/** The field fastify's request loggers name the request id in (its default; app.ts keeps it). */
const REQUEST_ID_LABEL = 'reqId';

export interface AccessLogOptions {
  mode: AccessLogMode;
  /** One line in this many answered requests (status < 400); every refused or failed one is written (http.accessLogSample; default 1). */
  sample?: number;
  /** The logger the app's request loggers derive from; its level decides whether the line would be written. */
  logger: Pick<Logger, 'isLevelEnabled' | 'child'>;
  /** Where the lines go, with the same bindings as `logger` (the daemon's: written in blocks, src/util/logger.ts createAccessLogger); omitted: through `logger`. */
  lines?: Pick<Logger, 'info' | 'debug'> | undefined;
  clientAddressOf: (request: FastifyRequest) => string;
}

/**
 * The status page's own traffic: its polling (GET /v1/stations…) and its files, answered without
 * error. Logged at debug even when the access log is at info: one open tab wrote ~13k lines a day.
 */
export function isPageTraffic(method: string, route: string | undefined, statusCode: number): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || statusCode >= 400 || route === undefined) return false;
  return (
    route === '/' ||
    route === '/stations/:id' ||
    route.startsWith('/assets/') ||
    route === STATIONS_PATH ||
    route.startsWith(`${STATIONS_PATH}/`)
  );
}

export function registerAccessLog(
  app: FastifyInstance,
  { mode, sample = 1, logger, lines: given, clientAddressOf }: AccessLogOptions,
): void {
  if (mode === 'off' || !logger.isLevelEnabled(mode)) return;
  const lines = given ?? logger.child({}, { redact: [] });
  const every = Math.max(1, Math.floor(sample));
  let answered = 0;
  // Callback style: a promise per request costs more than the line itself.
  app.addHook('onResponse', (request, reply, done) => {
    // Sampled: the first answered request of every `every`; refusals and failures always (they are what an operator looks for).
    if (every > 1 && reply.statusCode < 400 && answered++ % every !== 0) {
      done();
      return;
    }
    const route = request.routeOptions.url;
    const level = mode === 'info' && isPageTraffic(request.method, route, reply.statusCode) ? 'debug' : mode;
    lines[level](
      {
        [REQUEST_ID_LABEL]: request.id,
        method: request.method,
        path: loggedPath(request, route),
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime),
        clientAddress: clientAddressOf(request),
      },
      'request',
    );
    done();
  });
}
