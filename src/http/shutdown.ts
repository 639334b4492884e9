/**
 * Stopping the HTTP server within a bounded time. fastify's close() stops
 * accepting, lets in-flight requests finish and closes idle keep-alive
 * sockets, but a connection that has sent nothing yet or only part of a
 * request is neither: it would hold the stop until the connection or request
 * timeout (30-60 s), past the CLI's forced exit, with the database still open.
 */
import type { FastifyInstance } from 'fastify';
import { guarded, logFailure } from '../util/guarded.js';

/** In-flight requests get this long to finish once the stop begins (a calculation takes milliseconds). */
export const STOP_GRACE_MS = 1500;

export async function closeApp(app: FastifyInstance, graceMs = STOP_GRACE_MS): Promise<void> {
  const cutOff = setTimeout(
    guarded(() => app.server.closeAllConnections(), logFailure(app.log, 'closing lingering HTTP connections')),
    graceMs,
  );
  try {
    await app.close();
  } finally {
    clearTimeout(cutOff);
  }
}
