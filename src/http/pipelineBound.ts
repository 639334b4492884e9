/**
 * A bound on the requests one connection has waiting for answers (HTTP/1.1 pipelining). Node's
 * server stops reading a connection only once answers are queued unwritten (its own pause in
 * parserOnIncoming looks at the bytes queued for writing); an answer that waits for a promise
 * queues nothing yet, so one write of 25,000 `GET /health` ran 25,000 handlers at once, held as
 * many answers in memory (RSS 120 → 530 MB) and kept other clients waiting for seconds.
 *
 * Here a connection runs at most `limit` requests at once; a further one waits unhandled in the
 * connection's queue and the connection is not read (socket.pause) until the queue is empty again.
 * Node parses a whole received chunk (up to 64 KiB, ~1,700 small requests) at once, so requests
 * can still arrive while paused; a connection with more than HARD_FACTOR × `limit` waiting is
 * closed. Node itself resumes a paused socket in places (an answered request's body is drained),
 * so a resume while requests wait is undone at once.
 *
 * The wrapper also tells the connection pool (./connectionPool.ts) when a connection turns busy
 * and idle: the pool closes idle connections first under pressure.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionCounters } from './connectionCounters.js';

/** Waiting requests beyond this many times the limit close the connection. */
export const HARD_FACTOR = 4;

/** Connections paused (`limit` requests unanswered) and dropped (more than HARD_FACTOR × limit waiting). */
export type PipelineCounters = Pick<ConnectionCounters, 'paused' | 'dropped'>;

export interface PipelineBoundOptions {
  /** Requests in flight per connection; 0: no bound (requests still reach `busy`/`idle`). */
  limit: number;
  counters: PipelineCounters;
  busy?: (socket: Socket) => void;
  idle?: (socket: Socket) => void;
}

interface ConnectionQueue {
  inFlight: number;
  waiting: Array<[IncomingMessage, ServerResponse]>;
  paused: boolean;
}

export function boundPipelining(handler: RequestListener, options: PipelineBoundOptions): RequestListener {
  const { limit, counters } = options;
  const queues = new WeakMap<Socket, ConnectionQueue>();

  const queueOf = (socket: Socket): ConnectionQueue => {
    let queue = queues.get(socket);
    if (!queue) {
      const created: ConnectionQueue = { inFlight: 0, waiting: [], paused: false };
      queue = created;
      queues.set(socket, created);
      socket.on('resume', () => {
        if (created.paused && !socket.destroyed) socket.pause();
      });
    }
    return queue;
  };

  const run = (socket: Socket, queue: ConnectionQueue, request: IncomingMessage, response: ServerResponse): void => {
    if (queue.inFlight++ === 0) options.busy?.(socket);
    response.once('close', () => {
      queue.inFlight--;
      const next = queue.waiting.shift();
      if (next) {
        if (!socket.destroyed) run(socket, queue, ...next);
        return;
      }
      if (queue.paused) {
        queue.paused = false;
        if (!socket.destroyed) socket.resume();
      }
      if (queue.inFlight === 0) options.idle?.(socket);
    });
    handler(request, response);
  };

  return (request, response) => {
    const socket = request.socket;
    // The rest of a chunk parsed after the connection was closed for flooding: nobody reads the answers.
    if (socket.destroyed) return;
    const queue = queueOf(socket);
    if (limit <= 0 || queue.inFlight < limit) return run(socket, queue, request, response);
    queue.waiting.push([request, response]);
    if (queue.waiting.length > HARD_FACTOR * limit) {
      counters.dropped++;
      queue.waiting.length = 0;
      socket.destroy();
      return;
    }
    if (!queue.paused) {
      queue.paused = true;
      counters.paused++;
      socket.pause();
    }
  };
}
