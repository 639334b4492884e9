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
 * What one message waiting in a full buffer costs beyond its bytes: the socket's buffer entries
 * (about 425 bytes of heap for a 77-byte PUBLISH, measured) and aedes' callbacks. Counted, so
 * that a flood of tiny messages is bounded by its memory, not only by its bytes.
 */
export const MESSAGE_COST_BYTES = 512;

/**
 * Makes `client`'s live deliveries complete without waiting for its socket; `overflow` is told
 * (with the unsent bytes) when a message comes for a client with more than `maxUnsentBytes`
 * unsent, each message waiting in a full buffer counted MESSAGE_COST_BYTES more, and must
 * disconnect it. Call right after aedes' handle(), before the client's first SUBSCRIBE: its
 * subscriptions keep the delivery functions they were made with.
 */
export function releaseLiveDeliveries(
  client: Client,
  socket: OutgoingSocket,
  maxUnsentBytes: number,
  overflow: (unsentBytes: number) => void,
): void {
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
  /** Clients already counted: aedes reports a drain timeout once for every write that waited. */
  readonly #droppedClients = new WeakSet<Client>();
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
      this.#drop(
        client,
        `it stopped reading: ${unsent} bytes unsent (${MESSAGE_COST_BYTES} counted for each waiting message), over broker.maxOutgoingBytesPerClient = ${max}`,
      );
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
    if (this.#droppedClients.has(client)) return;
    this.#droppedClients.add(client);
    this.dropped++;
    const remoteAddress = this.#addresses.get(client) ?? 'unknown';
    this.#throttle.warn(
      `slow-client:${remoteAddress}`,
      { clientId: client.id, remoteAddress },
      `MQTT client disconnected so that it holds back nobody else: ${why}`,
    );
  }
}
