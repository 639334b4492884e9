/**
 * The daemon's connection to its embedded broker without MQTT packets: subscriptions,
 * publishes and the retained messages a subscription starts with go through aedes' own
 * in-process API on the broker instance (src/mqtt/broker.ts `ownTraffic`). Nothing is
 * encoded, parsed or acknowledged, and no client connection exists for it: broker and daemon
 * share a process, so there is no connection to lose. What a client connection gave the
 * daemon, this keeps: only it publishes its own topics (the broker marks its packets as the
 * daemon's; no network client can reach this API), other subscribers get its messages with the
 * QoS and retain flag it asks for, its subscriptions first get the retained messages of their
 * filter, and `stop()` publishes the final `offline` that a will would have.
 */
import type { Logger } from 'pino';
import { logFailure, runGuarded } from '../util/guarded.js';
import { LogThrottle } from '../util/logThrottle.js';
import { MessageRoutes } from './messageRoutes.js';
import { SubscriptionAcks } from './subscriptionAcks.js';
import type { BridgeConnection, MessageHandler, PublishOptions } from './publisher.js';
import { hasWildcard } from './topics.js';

/** A message as the broker delivers it to the daemon. */
export interface DeliveredMessage {
  readonly topic: string;
  readonly payload: Buffer | string;
}

/** Receives one message; must call `done` before returning (aedes' `deliverfunc`). */
export type Deliver = (message: DeliveredMessage, done: () => void) => void;

export interface OwnPacket {
  topic: string;
  payload: Buffer;
  qos: 0 | 1;
  retain: boolean;
}

/** What the in-process connection needs of the embedded broker (src/mqtt/broker.ts). */
export interface OwnTraffic {
  /** The broker runs (started and not stopped). */
  readonly running: boolean;
  /** Publishes as the daemon: its own topics are open to it; size and depth limits apply. */
  publishOwn(packet: OwnPacket, done: (err?: Error) => void): void;
  subscribeOwn(filter: string, deliver: Deliver, done: (err?: Error) => void): void;
  unsubscribeOwn(filter: string, deliver: Deliver): void;
  /** The retained messages matching `filter` now. */
  retainedOf(filter: string): AsyncIterable<DeliveredMessage>;
  /** Whether a message `retainedOf` gave is still the retained message of its topic (not replaced since). */
  holdsRetained(message: DeliveredMessage): boolean;
}

export interface InProcessOptions {
  baseTopic: string;
  /** Relative to the base topic: where `stop(finalPayload)` publishes (retained, QoS 1). */
  willTopic: string;
}

const asBuffer = (payload: Buffer | string): Buffer => (typeof payload === 'string' ? Buffer.from(payload) : payload);

/**
 * How long one publish may hold the next. The broker completes a publish once every subscriber
 * has it (each client's copy waits in that client's own bounded buffer, src/mqtt/slowSubscribers.ts),
 * so this is never reached; it keeps `mowable` from ever queueing behind a delivery that does not
 * complete, whatever the cause.
 */
export const OWN_PUBLISH_PATIENCE_MS = 2000;

export class InProcessConnection implements BridgeConnection {
  readonly #broker: OwnTraffic;
  readonly #options: InProcessOptions;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #routes: MessageRoutes;
  readonly #acks = new SubscriptionAcks();
  /** One delivery function per filter: aedes keys a subscription by filter and function. */
  readonly #delivers = new Map<string, Deliver>();
  readonly #connectHandlers: Array<() => void | Promise<void>> = [];
  /** Latest unsent message per topic before start (as the client keeps them while disconnected). */
  readonly #pending = new Map<string, { payload: string | Buffer; options: PublishOptions }>();
  /** Publishes waiting for the one in flight (see #publishNext). */
  readonly #queue: Array<{ packet: OwnPacket; sent: (() => void) | undefined }> = [];
  #publishing = false;
  #started = false;
  connects = 0;

  constructor(broker: OwnTraffic, options: InProcessOptions, logger: Logger) {
    this.#broker = broker;
    this.#options = options;
    this.#log = logger.child({ module: 'mqtt-client' });
    this.#throttle = new LogThrottle(this.#log);
    this.#routes = new MessageRoutes(this.#throttle);
  }

  get connected(): boolean {
    return this.#started && this.#broker.running;
  }

  topic(relative: string): string {
    return `${this.#options.baseTopic}/${relative}`;
  }

  onConnect(handler: () => void | Promise<void>): void {
    this.#connectHandlers.push(handler);
  }

  subscribe(filter: string, handler: MessageHandler): void {
    if (this.#routes.add(filter, handler) && this.#started) this.#attach(filter);
  }

  get unacknowledged(): readonly string[] {
    return this.#acks.pending;
  }

  subscriptionsSettled(): Promise<void> {
    return this.#acks.settled();
  }

  unsubscribe(filter: string): void {
    if (!this.#routes.remove(filter)) return;
    this.#acks.dropped(filter);
    const deliver = this.#delivers.get(filter);
    this.#delivers.delete(filter);
    if (deliver) this.#broker.unsubscribeOwn(filter, deliver);
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const filter of this.#routes.filters) this.#attach(filter);
    this.connects++;
    this.#log.info({ broker: 'embedded, in process' }, 'connected to MQTT broker');
    void runGuarded(() => this.#afterConnect(), logFailure(this.#log, 'publishing after connect'));
  }

  async #afterConnect(): Promise<void> {
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const [topic, { payload, options }] of pending) this.#send(topic, payload, options);
    for (const handler of this.#connectHandlers) await runGuarded(handler, logFailure(this.#log, 'connect handler'));
  }

  /** Subscribes `filter` on the broker, then hands its retained messages to the filter's handlers. */
  #attach(filter: string): void {
    // Like a client connection's: '#' and '+' at the first level do not match `$SYS/...` (MQTT 3.1.1 §4.7.2).
    const skipsSys = !filter.startsWith('$');
    const deliver: Deliver = (message, done) => {
      if (!(skipsSys && message.topic.startsWith('$'))) this.#routes.dispatchTo(filter, message.topic, asBuffer(message.payload), false);
      done();
    };
    this.#delivers.set(filter, deliver);
    this.#acks.requested(filter);
    this.#broker.subscribeOwn(filter, deliver, (err) => {
      if (err) {
        this.#log.error({ err, filter }, 'subscribe failed');
        return this.#acks.attemptFailed();
      }
      // In place from here on: a message published now reaches the daemon.
      if (this.#delivers.get(filter) === deliver) this.#acks.acknowledged(filter);
      void runGuarded(() => this.#replayRetained(filter, deliver), logFailure(this.#log, 'reading retained messages', { filter }));
    });
  }

  async #replayRetained(filter: string, deliver: Deliver): Promise<void> {
    for await (const message of this.#broker.retainedOf(filter)) {
      // Unsubscribed meanwhile: the rest is not for us any more.
      if (this.#delivers.get(filter) !== deliver) return;
      // Replaced since it was read: the newer message reaches us live (the subscription came first).
      if (!this.#broker.holdsRetained(message)) continue;
      this.#routes.dispatchTo(filter, message.topic, asBuffer(message.payload), true);
    }
  }

  publish(relative: string, payload: string | Buffer, options: PublishOptions = {}): void {
    this.publishAbsolute(this.topic(relative), payload, options);
  }

  publishAbsolute(topic: string, payload: string | Buffer, options: PublishOptions = {}): void {
    if (hasWildcard(topic) || topic === '') throw new Error(`refusing to publish to "${topic}": wildcards are not allowed in a topic name`);
    if (!this.#started) {
      this.#pending.set(topic, { payload, options });
      return;
    }
    this.#send(topic, payload, options);
  }

  #send(topic: string, payload: string | Buffer, options: PublishOptions, sent?: () => void): void {
    this.#queue.push({ packet: { topic, payload: asBuffer(payload), qos: options.qos ?? 1, retain: options.retain ?? false }, sent });
    if (!this.#publishing) this.#publishNext();
  }

  /**
   * One publish at a time, in order, as a client connection's packets are handled. aedes numbers
   * every message and drops, per subscriber, one numbered below a message it already delivered;
   * a QoS 1 message takes an extra asynchronous step (queueing for offline sessions) that a QoS 0
   * one skips, so publishing a burst at once let later QoS 0 stats overtake the QoS 1 discovery
   * configs before them, and subscribers never got those. A publish the broker does not complete
   * within OWN_PUBLISH_PATIENCE_MS holds the next no longer: the daemon never waits on a client.
   */
  #publishNext(): void {
    const next = this.#queue.shift();
    this.#publishing = next !== undefined;
    if (!next) return;
    let settled = false;
    const advance = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(patience);
      if (err) this.#throttle.warn(`publish:${err.message}`, { err: err.message, topic: next.packet.topic }, 'publish failed');
      next.sent?.();
      this.#publishNext();
    };
    const patience = setTimeout(() => {
      this.#throttle.warn(
        'publish-patience',
        { topic: next.packet.topic },
        `the broker has not completed a publish in ${OWN_PUBLISH_PATIENCE_MS} ms; publishing the next one without waiting`,
      );
      advance();
    }, OWN_PUBLISH_PATIENCE_MS);
    patience.unref();
    this.#broker.publishOwn(next.packet, advance);
  }

  async stop(finalPayload?: string): Promise<void> {
    if (!this.#started) return;
    if (this.connected && finalPayload !== undefined) {
      await new Promise<void>((resolve) =>
        this.#send(this.topic(this.#options.willTopic), finalPayload, { qos: 1, retain: true }, resolve),
      );
    }
    this.#started = false;
    for (const [filter, deliver] of this.#delivers) this.#broker.unsubscribeOwn(filter, deliver);
    this.#delivers.clear();
  }
}
