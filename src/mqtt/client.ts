/**
 * The one module that touches mqtt.js. It prefixes our topics with the base
 * topic, refuses wildcards on publish, sets the Last Will, backs off on
 * reconnect, keeps only the latest message per topic while disconnected and
 * sends those on connect, and wraps message handlers so one bad message
 * cannot break the loop. Never throws into the caller for network problems.
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { skipPacketNumberCache } from './packetNumbers.js';
import type { Logger } from 'pino';
import { LogThrottle } from '../util/logThrottle.js';
import { hasWildcard } from './topics.js';
import { guarded, logFailure, runGuarded } from '../util/guarded.js';
import { redactUrl } from '../util/redactUrl.js';
import { MessageRoutes } from './messageRoutes.js';
import { SubscriptionAcks } from './subscriptionAcks.js';
import { describeConnectionError, type ConnectionProblem } from './connectionProblem.js';
import type { BridgeConnection, MessageHandler, PublishOptions } from './publisher.js';

export interface ConnectionOptions {
  url: string;
  clientId: string;
  baseTopic: string;
  username?: string;
  password?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized: boolean;
  keepaliveSeconds: number;
  reconnectMaxSeconds: number;
  /**
   * clean:false, so the broker queues QoS 1 readings while we are away (the
   * bridge's setting on an external broker; the embedded one is used in process,
   * src/mqtt/inProcessConnection.ts). Tests connecting to aedes use a clean
   * session: aedes 1.2 mishandles clean:false sessions when a message arrives
   * on a topic with an empty level ("no such packet", the connection is
   * dropped and messages are lost).
   *
   * It also sets the QoS we subscribe with: 1 with a persistent session (what
   * the broker queues for us while we are away), 0 without. A clean session's
   * unacknowledged messages are dropped with the connection either way, so
   * QoS 1 would only add a PUBACK per message and the broker's bookkeeping of
   * it.
   */
  persistentSession: boolean;
  /** Relative to the base topic, e.g. "bridge/state". */
  willTopic: string;
  willPayload: string;
}

const FIRST_RECONNECT_MS = 1000;
/** Attempts at the first delay before backing off: a broker restart takes a few seconds. */
const QUICK_ATTEMPTS = 5;

/** Wait before the next attempt: 1 s for the first few, then doubling up to the cap. */
export function reconnectDelayMs(failedAttempts: number, maxMs: number): number {
  if (failedAttempts <= QUICK_ATTEMPTS) return Math.min(FIRST_RECONNECT_MS, maxMs);
  return Math.min(FIRST_RECONNECT_MS * 2 ** (failedAttempts - QUICK_ATTEMPTS), maxMs);
}
const STOP_TIMEOUT_MS = 3000;

export class MqttConnection implements BridgeConnection {
  readonly #options: ConnectionOptions;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #routes: MessageRoutes;
  readonly #acks = new SubscriptionAcks();
  /** Subscriptions whose first attempt failed with the connection: asked again on connect. */
  readonly #deferred = new Set<string>();
  readonly #connectHandlers: Array<() => void | Promise<void>> = [];
  /** Latest unsent message per topic while disconnected. */
  readonly #offline = new Map<string, { payload: string | Buffer; options: PublishOptions }>();
  #client: MqttClient | undefined;
  #failedAttempts = 0;
  /** Why the last attempt failed, until the next connect (src/mqtt/connectionProblem.ts). */
  #problem: ConnectionProblem | undefined;
  connects = 0;

  constructor(options: ConnectionOptions, logger: Logger) {
    this.#options = options;
    this.#log = logger.child({ module: 'mqtt-client' });
    this.#throttle = new LogThrottle(this.#log);
    this.#routes = new MessageRoutes(this.#throttle);
  }

  get connected(): boolean {
    return this.#client?.connected ?? false;
  }

  /** The last connection failure's one line (names the setting to fix), until the next connect. */
  get problem(): string | undefined {
    return this.#problem?.line;
  }

  /** `<base>/<relative>` */
  topic(relative: string): string {
    return `${this.#options.baseTopic}/${relative}`;
  }

  onConnect(handler: () => void | Promise<void>): void {
    this.#connectHandlers.push(handler);
  }

  /** QoS 1 only where the broker keeps our session (see `persistentSession`). */
  get #subscribeQos(): 0 | 1 {
    return this.#options.persistentSession ? 1 : 0;
  }

  /** Subscribes (QoS 1 with a persistent session, else 0) and routes matching messages to `handler`. Call before or after start(). */
  subscribe(filter: string, handler: MessageHandler): void {
    if (!this.#routes.add(filter, handler) || !this.#client) return;
    this.#subscribeOnBroker(this.#client, filter, false);
  }

  /**
   * Asks the broker; acknowledged on its SUBACK (mqtt.js calls back with an error for a refused one, 0x80).
   * One asked before the first connect that fails (the connection failed) is asked again on the next connect.
   */
  #subscribeOnBroker(client: MqttClient, filter: string, beforeConnect: boolean): void {
    this.#acks.requested(filter);
    client.subscribe(filter, { qos: this.#subscribeQos }, (err) => {
      if (!err) return this.#acks.acknowledged(filter);
      if (beforeConnect) {
        this.#log.debug({ err, filter }, 'subscribe deferred');
        this.#deferred.add(filter);
      } else this.#log.error({ err, filter }, 'subscribe failed');
      this.#acks.attemptFailed();
    });
  }

  get unacknowledged(): readonly string[] {
    return this.#acks.pending;
  }

  subscriptionsSettled(): Promise<void> {
    return this.#acks.settled();
  }

  /** Drops every handler of `filter` and unsubscribes. */
  unsubscribe(filter: string): void {
    if (!this.#routes.remove(filter)) return;
    this.#acks.dropped(filter);
    this.#client?.unsubscribe(filter, (err) => {
      if (err) this.#log.warn({ err, filter }, 'unsubscribe failed');
    });
  }

  /** Starts connecting in the background; never blocks on or throws for an unreachable broker. */
  start(): void {
    if (this.#client) return;
    // 6.0 MB of heap, RSS 120.1 → 113.1 MB (bench/NOTES.md, "mqtt-packet's number cache off").
    skipPacketNumberCache();
    const o = this.#options;
    const clientOptions: IClientOptions = {
      clientId: o.clientId,
      clean: !o.persistentSession,
      keepalive: o.keepaliveSeconds,
      reconnectPeriod: FIRST_RECONNECT_MS,
      // mqtt.js stops for good after a refused CONNACK (a wrong password): keep trying with the
      // back-off, so an account added or fixed on the broker is picked up without a restart.
      reconnectOnConnackError: true,
      connectTimeout: 10_000,
      rejectUnauthorized: o.rejectUnauthorized,
      resubscribe: true,
      will: { topic: this.topic(o.willTopic), payload: Buffer.from(o.willPayload), qos: 1, retain: true },
      ...(o.username ? { username: o.username } : {}),
      ...(o.password ? { password: o.password } : {}),
      ...(o.ca ? { ca: o.ca } : {}),
      ...(o.cert ? { cert: o.cert } : {}),
      ...(o.key ? { key: o.key } : {}),
    };
    const client = mqtt.connect(o.url, clientOptions);
    this.#client = client;
    client.on('connect', (connack) => {
      this.connects++;
      this.#failedAttempts = 0;
      this.#problem = undefined;
      client.options.reconnectPeriod = FIRST_RECONNECT_MS;
      // mqtt.js (resubscribe: true) renews our subscriptions itself when the broker lost the session.
      this.#log.info({ url: redactUrl(o.url), sessionPresent: connack.sessionPresent }, 'connected to MQTT broker');
      const subscribed = new Set(this.#routes.filters);
      const deferred = [...this.#deferred].filter((filter) => subscribed.has(filter));
      this.#deferred.clear();
      for (const filter of deferred) this.#subscribeOnBroker(client, filter, true);
      void runGuarded(() => this.#afterConnect(), logFailure(this.#log, 'publishing after connect'));
    });
    client.on('close', () => {
      if (client.disconnecting) return;
      this.#failedAttempts++;
      client.options.reconnectPeriod = reconnectDelayMs(this.#failedAttempts, o.reconnectMaxSeconds * 1000);
    });
    // A broker that answered (a refusal, a TLS failure) is not "unreachable": its error line said why.
    client.on('offline', () => {
      this.#acks.attemptFailed();
      if (!this.#problem?.answered)
        this.#throttle.warn('offline', { url: redactUrl(o.url) }, 'MQTT broker unreachable; retrying in the background');
    });
    client.on('error', (err) => {
      this.#acks.attemptFailed();
      const problem = describeConnectionError(err, o.url);
      this.#problem = problem;
      this.#throttle.warn(
        `error:${err.message}`,
        { err: err.message, url: redactUrl(o.url) },
        `${problem.line}; retrying in the background`,
      );
    });
    client.on(
      'message',
      guarded((topic, payload, packet) => this.#routes.dispatch(topic, payload, packet.retain), logFailure(this.#log, 'message dispatch')),
    );
    for (const filter of this.#routes.filters) this.#subscribeOnBroker(client, filter, true);
  }

  async #afterConnect(): Promise<void> {
    const queued = [...this.#offline];
    this.#offline.clear();
    for (const [topic, { payload, options }] of queued) this.#send(topic, payload, options);
    for (const handler of this.#connectHandlers) await runGuarded(handler, logFailure(this.#log, 'connect handler'));
  }

  /** Publishes under the base topic (`relative` = "garden/state"). */
  publish(relative: string, payload: string | Buffer, options: PublishOptions = {}): void {
    this.publishAbsolute(this.topic(relative), payload, options);
  }

  /** Publishes to a topic outside the base topic (Home Assistant discovery). */
  publishAbsolute(topic: string, payload: string | Buffer, options: PublishOptions = {}): void {
    if (hasWildcard(topic) || topic === '') throw new Error(`refusing to publish to "${topic}": wildcards are not allowed in a topic name`);
    if (!this.#client?.connected) {
      this.#offline.set(topic, { payload, options });
      return;
    }
    this.#send(topic, payload, options);
  }

  #send(topic: string, payload: string | Buffer, options: PublishOptions): void {
    this.#client?.publish(topic, payload, { qos: options.qos ?? 1, retain: options.retain ?? false }, (err) => {
      if (err) this.#throttle.warn(`publish:${err.message}`, { err: err.message, topic }, 'publish failed');
    });
  }

  /** Publishes `payload` to the will topic if connected, then disconnects. Bounded in time. */
  async stop(finalPayload?: string): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#client = undefined;
    const withTimeout = <T>(promise: Promise<T>): Promise<T | undefined> =>
      Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), STOP_TIMEOUT_MS).unref())]);
    try {
      if (client.connected && finalPayload !== undefined) {
        await withTimeout(client.publishAsync(this.topic(this.#options.willTopic), finalPayload, { qos: 1, retain: true }));
      }
      await withTimeout(client.endAsync(!client.connected));
    } catch (err) {
      this.#log.warn({ err }, 'error while disconnecting');
      client.end(true);
    }
  }
}
