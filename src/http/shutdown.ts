/**
 * Stopping the HTTP server within a bounded time. fastify's close() stops
 * accepting, lets in-flight requests finish and closes idle keep-alive
 * sockets, but a connection that has sent nothing yet, or only part of its
 * headers, counts as neither: it would hold the stop until the connection or
 * request timeout (30-60 s), past the CLI's forced exit, with the database
 * still open. So connections are tracked from the start, and once the stop
 * has given them a moment, every connection without a request in progress is
 * closed. A request in progress is left to finish (the forced exit bounds it).
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { guarded, logFailure } from '../util/guarded.js';

/** How long connections without a request get after the stop begins (a request may just be arriving). */
export const STOP_GRACE_MS = 1000;

interface Tracker {
  sockets: Set<Socket>;
  busy: Set<Socket>;
}

const trackers = new WeakMap<FastifyInstance, Tracker>();

/** Call while building the app (before listen): remembers its connections and which carry a request. */
export function trackConnections(app: FastifyInstance): void {
  const tracker: Tracker = { sockets: new Set(), busy: new Set() };
  trackers.set(app, tracker);
  app.server.on('connection', (socket: Socket) => {
    tracker.sockets.add(socket);
    socket.once('close', () => {
      tracker.sockets.delete(socket);
      tracker.busy.delete(socket);
    });
  });
  // onRequest runs once the headers are read: from then on the connection carries a request.
  // Callback style, like the app's other per-request hooks: a promise per hook and request costs more than a Set operation.
  app.addHook('onRequest', (request, _reply, done) => {
    tracker.busy.add(request.raw.socket);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    tracker.busy.delete(request.raw.socket);
    done();
  });
}

/** fastify's close(), and after `graceMs` every tracked connection without a request in progress is destroyed. */
export async function closeApp(app: FastifyInstance, graceMs = STOP_GRACE_MS): Promise<void> {
  const tracker = trackers.get(app);
  const cutOff = setTimeout(
    guarded(
      () => {
        for (const socket of tracker?.sockets ?? []) if (!tracker?.busy.has(socket)) socket.destroy();
      },
      logFailure(app.log, 'closing lingering HTTP connections'),
    ),
    graceMs,
  );
  try {
    await app.close();
  } finally {
    clearTimeout(cutOff);
  }
}
