/**
 * The access log: one line per request (http.accessLog). Registered only when
 * the line would be written, so "debug" under the shipped info level and
 * "off" cost nothing per request; the decision is taken once, at start.
 * Error lines (unexpected errors, 5xx) come from ./errors.ts and do not
 * depend on this setting.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AccessLogMode } from '../config/serviceSchema.js';
import { loggedPath } from './errors.js';

export interface AccessLogOptions {
  mode: AccessLogMode;
  /** The logger the app's request loggers derive from; its level decides whether the line would be written. */
  logger: Pick<Logger, 'isLevelEnabled'>;
  clientAddressOf: (request: FastifyRequest) => string;
}

export function registerAccessLog(app: FastifyInstance, { mode, logger, clientAddressOf }: AccessLogOptions): void {
  if (mode === 'off' || !logger.isLevelEnabled(mode)) return;
  // Callback style: a promise per request costs more than the line itself.
  app.addHook('onResponse', (request, reply, done) => {
    request.log[mode](
      {
        method: request.method,
        path: loggedPath(request),
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime),
        clientAddress: clientAddressOf(request),
      },
      'request',
    );
    done();
  });
}
