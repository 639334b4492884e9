/**
 * The one place that shapes error responses. Every failure, from the auth
 * hooks, the body parser, the rate limiter, the router or a bug, ends up as the
 * envelope {status: "error", mfi: null, message} with a fixed English message.
 */
import { HttpError } from '../util/httpError.js';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../store/sqlDatabase.js';
import { loggedPath, pathOf } from './loggedPath.js';
import { CALCULATE_PATH, HEALTH_PATHS, OPENAPI_PATH } from './paths.js';

export const MESSAGES = {
  noApiKey: 'No API key provided.',
  invalidApiKey: 'Invalid API key.',
  apiKeyDisabled: 'API key is disabled.',
  accessDenied: 'Access denied.',
  methodNotAllowed: 'HTTP method not allowed.',
  maintenance: 'The API is in maintenance mode.',
  shuttingDown: 'The service is shutting down. Retry shortly.',
  systemChecksFailed: 'One or more system checks failed.',
  notFound: 'Not found.',
  // Also for JSON with __proto__ or constructor.prototype keys, which fastify refuses while parsing.
  malformedJson: 'Malformed JSON in the request body.',
  bodyNotObject: 'The request body must be a JSON object or form fields.',
  unsupportedMediaType: 'Unsupported content type. Use application/json or application/x-www-form-urlencoded.',
  tooManyRequests: 'Too many requests. Retry after the time given in the Retry-After header.',
  badContentLength: 'The Content-Length header does not match the request body.',
  badRequest: 'Bad request.',
  malformedUrl: 'Malformed URL: the path contains an invalid percent-encoding.',
  missingHost: 'Missing Host header (required by HTTP/1.1).',
  requestTimeout: 'Request timeout.',
  headersTooLarge: 'Request header fields too large.',
  internal: 'Internal server error.',
  storeUnavailable: 'The service is briefly unavailable. Retry after the time given in the Retry-After header.',
  bodyTooLarge: (limitBytes: number) => `Request body too large. The limit is ${limitBytes} bytes.`,
  quotaExceeded: (quota: number) =>
    `Daily quota of ${quota} requests for this API key is used up. Retry after the time given in the Retry-After header.`,
} as const;

/**
 * Paths that exist; any other method on them is 405 rather than 404. Not
 * /metrics: it exists only when http.metrics is not off.
 */
export const KNOWN_PATHS = new Set<string>([CALCULATE_PATH, ...HEALTH_PATHS, OPENAPI_PATH]);

/**
 * Sends JSON text as it is: with a JSON content type fastify applies no
 * response schema to a string, so the text must already be
 * schema-conformant (./orderedSerializer.ts, or an envelope fixed by
 * construction). The string goes out without a Buffer of its own: fastify
 * measures its UTF-8 length for Content-Length and Node encodes it while
 * writing it, in one write with the headers. A Buffer made here (as before)
 * measured and encoded it too, and added an allocation and a second chunk to
 * every write: the German reason texts (– and °) make every result a
 * two-byte string, the slow case for each of these passes.
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJsonText(reply: FastifyReply, statusCode: number, json: string): FastifyReply {
  return reply.code(statusCode).header('content-type', JSON_CONTENT_TYPE).send(json);
}

export function errorEnvelope(message: string): { status: 'error'; mfi: null; message: string } {
  return { status: 'error', mfi: null, message };
}

/** The envelope has exactly the fields of errorEnvelopeSchema, in its order, by construction. */
export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return sendJsonText(reply, statusCode, JSON.stringify(errorEnvelope(message)));
}

/** Status and client-safe message for any error; undefined status means "unexpected" (500). */
function classify(error: FastifyError, bodyLimitBytes: number): { statusCode: number; message: string } | undefined {
  if (error instanceof HttpError) return { statusCode: error.statusCode, message: error.message };
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { statusCode: 415, message: MESSAGES.unsupportedMediaType };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { statusCode: 413, message: MESSAGES.bodyTooLarge(bodyLimitBytes) };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { statusCode: 400, message: MESSAGES.malformedJson };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { statusCode: 400, message: MESSAGES.badContentLength };
    default:
      break;
  }
  const statusCode = error.statusCode ?? 500;
  if (statusCode === 429) return { statusCode, message: MESSAGES.tooManyRequests };
  // Body-parser syntax errors (e.g. forbidden __proto__ keys) arrive as plain 400s.
  if (statusCode === 400) return { statusCode, message: error instanceof SyntaxError ? MESSAGES.malformedJson : MESSAGES.badRequest };
  if (statusCode === 408) return { statusCode, message: MESSAGES.requestTimeout };
  if (statusCode >= 400 && statusCode < 500) return { statusCode, message: MESSAGES.badRequest };
  return undefined;
}

/** Checks run before a not-found answer or a framework error: blocks and the rate limit. */
export type RequestGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, bodyLimitBytes: number): FastifyReply {
  const known = classify(error, bodyLimitBytes);
  if (known) {
    request.log.debug({ code: error.code, statusCode: known.statusCode }, 'request rejected');
    if (error instanceof HttpError && error.headers) reply.headers(error.headers);
    return sendError(reply, known.statusCode, known.message);
  }
  if (error instanceof StoreUnavailableError) {
    // Logged once per outage by the store (src/publicService/postgres/outage.ts), not once per request.
    reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    return sendError(reply, 503, MESSAGES.storeUnavailable);
  }
  request.log.error({ err: error, method: request.method, path: loggedPath(request) }, 'unexpected error');
  return sendError(reply, 500, MESSAGES.internal);
}

/** What a client hears to wait while the shared store is unreachable (a failover takes seconds). */
export const STORE_RETRY_AFTER_SECONDS = 5;

export interface ErrorHandlingOptions {
  bodyLimitBytes: number;
  /** Runs before the not-found handler (the rate limiter), so unknown paths count like any other. */
  notFoundPreHandler?: RequestGuard;
}

export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions): void {
  app.setErrorHandler((error: FastifyError, request, reply) => answerError(error, request, reply, options.bodyLimitBytes));

  const hooks = options.notFoundPreHandler ? { preHandler: options.notFoundPreHandler } : {};
  app.setNotFoundHandler(hooks, (request, reply) => {
    const path = pathOf(request);
    const [statusCode, message] = KNOWN_PATHS.has(path) ? [405, MESSAGES.methodNotAllowed] : [404, MESSAGES.notFound];
    return sendError(reply, statusCode, message);
  });
}

/**
 * fastify's frameworkErrors option: the router rejects a path it cannot
 * decode (GET /v1/%zz) before any hook runs, so the guard (blocks, rate
 * limit) runs here and the answer is the envelope, not fastify's own body.
 */
export function frameworkErrorHandler(guard: () => RequestGuard | undefined, bodyLimitBytes: number) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      await guard()?.(request, reply);
    } catch (rejected) {
      return answerError(rejected as FastifyError, request, reply, bodyLimitBytes);
    }
    if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, 400, MESSAGES.malformedUrl);
    return answerError(error, request, reply, bodyLimitBytes);
  };
}

/**
 * Errors Node's HTTP parser raises before fastify sees a request (request
 * timeout, oversized headers, garbage). Answered on the raw socket with the
 * same envelope, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, MESSAGES.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, MESSAGES.headersTooLarge]
        : [400, MESSAGES.badRequest];
  if (socket.writable) {
    const body = JSON.stringify(errorEnvelope(message));
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
