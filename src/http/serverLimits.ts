/**
 * Limits of the Node HTTP server under fastify: request and header deadlines
 * and the connection cap. They protect a small machine from clients that open
 * many connections and send nothing (each holds a file descriptor and memory).
 */
import type { Server, ServerOptions } from 'node:http';

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
