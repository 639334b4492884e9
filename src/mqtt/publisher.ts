/**
 * The daemon's one connection to its broker, as the bridge, the units and the publishers use it.
 * Two implementations: mqtt.js to an external broker (src/mqtt/client.ts) and aedes' own
 * in-process API on the embedded broker (src/mqtt/inProcessConnection.ts). Publishers read it
 * when they publish: it exists only while the bridge runs (undefined before start and after
 * stop, when publishing is a no-op).
 */

export interface PublishOptions {
  retain?: boolean;
  qos?: 0 | 1;
}

/** `retained`: the broker replayed a stored message on subscribe (MQTT retain flag), not a live one. */
export type MessageHandler = (topic: string, payload: Buffer, retained: boolean) => void | Promise<void>;

export interface Publisher {
  readonly connected: boolean;
  /** `<base>/<relative>` */
  publish(relative: string, payload: string | Buffer, options?: PublishOptions): void;
  publishAbsolute(topic: string, payload: string | Buffer, options?: PublishOptions): void;
}

export type PublisherRef = () => Publisher | undefined;

export interface BridgeConnection extends Publisher {
  /** `<base>/<relative>` */
  topic(relative: string): string;
  /** Run after every (re)connect, once what was published while away has gone out. */
  onConnect(handler: () => void | Promise<void>): void;
  /** Routes messages matching `filter` to `handler` (retained ones first, flagged). Call before or after start(). */
  subscribe(filter: string, handler: MessageHandler): void;
  /** Drops every handler of `filter` and the subscription. */
  unsubscribe(filter: string): void;
  /** The subscriptions the broker has not acknowledged yet (./subscriptionAcks.ts). */
  readonly unacknowledged: readonly string[];
  /** Resolves once the broker acknowledged every subscription asked for so far, or when a connection attempt fails first. */
  subscriptionsSettled(): Promise<void>;
  /** The last connection failure as one line naming the setting to fix, until the next connect (external brokers only). */
  readonly problem?: string | undefined;
  /** Starts in the background; never throws for an unreachable broker. */
  start(): void;
  /** Publishes `finalPayload` retained to the will topic if connected, then disconnects. Bounded in time. */
  stop(finalPayload?: string): Promise<void>;
}
