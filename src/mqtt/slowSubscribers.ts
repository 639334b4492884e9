/**
 * Keeps a subscriber that stops reading from holding back anyone else. aedes hands every
 * published message to all matching subscribers at once (mqemitter) and completes the publish
 * only when each of them has written it; a write to a socket whose buffer is full waits for
 * 'drain'. So one client that never reads held the publisher (the daemon's one-at-a-time
 * publishing, a station's next reading), and at 100 such messages every delivery in the broker,
 * until aedes' drain timeout of 60 s dropped it; a reading's state then reached Home Assistant
 * 52.8 s late, and reconnecting repeated it.
 *
 * Here each client's live deliveries complete at once: the message waits in that client's own
 * socket buffer, which is bounded in bytes (`broker.maxOutgoingBytesPerClient`: a client with
 * more unsent is disconnected when the next message comes for it) and in time (aedes'
 * `drainTimeout`, set from `broker.slowClientSeconds`: a client whose buffer has not emptied for
 * that long is disconnected). Like Mosquitto, which buffers per client and never lets one slow
 * reader stall the others. What concerns only the client itself keeps aedes' pacing: the
 * retained messages its SUBSCRIBE starts with (a stream per client) and its own acknowledgements.
 */
import type { AedesPublishPacket, Client } from 'aedes';
import type { LogThrottle } from '../util/logThrottle.js';
import { isRetainedCopy } from './sessionStore.js';

type Deliver = (packet: AedesPublishPacket, done: () => void) => void;

/** What aedes' Client has beyond its typings: the two delivery functions its subscriptions call. */
interface DeliveringClient {
  deliver0: Deliver;
  deliverQoS: Deliver;
}

/** The client's socket as this guard reads it. */
export interface OutgoingSocket {
  readonly writableLength: number;
  readonly writableNeedDrain: boolean;
  readonly destroyed: boolean;
  readonly remoteAddress?: string | undefined;
  destroy(error?: Error): void;
  on(event: 'drain', listener: () => void): unknown;
}

export interface SlowSubscriberLimits {
  /** `broker.maxOutgoingBytesPerClient`. */
  readonly maxOutgoingBytes: number;
  /** `broker.slowClientSeconds`. */
  readonly slowClientSeconds: number;
}

/** aedes' error when a client's socket did not drain within its drainTimeout (lib/client.js). */
const DRAIN_TIMEOUT = 'drain timeout';
/** The error this guard destroys a client's socket with: already counted and logged. */
const OVERFLOW = 'outgoing buffer over broker.maxOutgoingBytesPerClient';

const noop = (): void => undefined;

/**
 * What one waiting message counts for at least, whatever its size: a buffered message costs the
 * socket's buffer entries, aedes' packet and its callbacks, about 1 KB of heap even when empty (a
 * flood of 65-byte messages held 14 MB for 1 MiB of bytes before this was counted).
 */
export const MESSAGE_COST_BYTES = 1024;

/**
 * Makes `client`'s live deliveries complete without waiting for its socket; `overflow` is told
 * (with the unsent bytes) when a message comes for a client with more than `maxUnsentBytes`
 * unsent, each message waiting in a full buffer counted as at least MESSAGE_COST_BYTES, and must
 * disconnect it. Call right after aedes' handle(), before the client's first SUBSCRIBE: its
 * subscriptions keep the delivery functions they were made with.
 */
export function releaseLiveDeliveries(client: Client, socket: OutgoingSocket, maxUnsentBytes: number, overflow: (unsentBytes: number) => void): void {
  const delivering = client as unknown as DeliveringClient;
  // Live messages handed to the socket since its buffer last filled past its high-water mark.
  let waiting = 0;
  socket.on('drain', () => {
    waiting = 0;
  });
  for (const name of ['deliver0', 'deliverQoS'] as const) {
    const deliver = delivering[name];
    delivering[name] = (packet, done) => {
      // Paced by the client's own reading, and holding nobody else: aedes' behaviour.
      if (isRetainedCopy(packet)) return deliver(packet, done);
      const unsent = socket.writableLength + waiting * MESSAGE_COST_BYTES;
      if (!socket.destroyed && unsent > maxUnsentBytes) overflow(unsent);
      else {
        if (socket.writableNeedDrain) waiting++;
        deliver(packet, noop);
      }
      // As aedes completes a delivery (never in the publisher's own call stack).
      setImmediate(done);
    };
  }
}

/** The broker's bounds on slow subscribers: which clients it watches, and the ones it dropped (counted and logged). */
export class SlowSubscribers {
  readonly #limits: SlowSubscriberLimits;
  readonly #throttle: LogThrottle;
  /** Each watched client's address, read while connected (a destroyed socket no longer has one). */
  readonly #addresses = new WeakMap<Client, string>();
  /** Clients disconnected for a full outgoing buffer or one that did not drain in time. */
  dropped = 0;

  constructor(limits: SlowSubscriberLimits, throttle: LogThrottle) {
    this.#limits = limits;
    this.#throttle = throttle;
  }

  /** aedes' drainTimeout: how long a client's socket may stay full. */
  get drainTimeoutMs(): number {
    return this.#limits.slowClientSeconds * 1000;
  }

  /** Watches a client aedes just created for `socket` (see releaseLiveDeliveries). */
  watch(client: Client, socket: OutgoingSocket): void {
    this.#addresses.set(client, socket.remoteAddress ?? 'unknown');
    const max = this.#limits.maxOutgoingBytes;
    releaseLiveDeliveries(client, socket, max, (unsent) => {
      this.#drop(client, `it stopped reading: ${unsent} bytes unsent (each waiting message counted as at least ${MESSAGE_COST_BYTES}), over broker.maxOutgoingBytesPerClient = ${max}`);
      socket.destroy(new Error(OVERFLOW));
    });
  }

  /**
   * Whether a client error is this guard's: a client aedes dropped for its drain timeout (counted
   * and logged here) or one the guard disconnected itself. False for any other error.
   */
  clientError(client: Client, err: Error): boolean {
    if (err.message === OVERFLOW) return true;
    if (err.message !== DRAIN_TIMEOUT) return false;
    this.#drop(client, `its outgoing buffer did not empty for broker.slowClientSeconds = ${this.#limits.slowClientSeconds}`);
    return true;
  }

  #drop(client: Client, why: string): void {
    this.dropped++;
    const remoteAddress = this.#addresses.get(client) ?? 'unknown';
    this.#throttle.warn(`slow-client:${remoteAddress}`, { clientId: client.id, remoteAddress }, `MQTT client disconnected so that it holds back nobody else: ${why}`);
  }
}
