/**
 * The embedded aedes broker. Like Mosquitto 2 it is anonymous only on
 * loopback (config validation enforces users elsewhere), caps connections,
 * payload size and topic depth, leaves our topics to the daemon's own
 * authenticated connection (BrokerAccess), accounts for other clients'
 * retained messages (RetainedLedger) and keeps them across restarts
 * (RetainedPersistence).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import type { RetainedStore } from '../store/retainedStore.js';
import { BrokerAccess, remoteAddress, type DiscoveryIdentity } from './brokerAccess.js';
import type { ClientTopics } from './clientTopics.js';
import type { BrokerUser } from '../config/mqttValues.js';
import { ConnectionCap } from './connectionCap.js';
import { LogThrottle } from '../util/logThrottle.js';
import { PacketLengthWatch } from './packetLengthWatch.js';
import { skipPacketNumberCache } from './packetNumbers.js';
import { payloadBytes, RetainedLedger } from './retainedLedger.js';
import { RetainedPersistence } from './retainedPersistence.js';
import type { RetainedLimits } from './retainedQuota.js';
import { explainListenError } from '../util/listenError.js';
import type { DeliveredMessage, Deliver, OwnPacket, OwnTraffic } from './inProcessConnection.js';
import { BirthLimit, type BirthLimitOptions } from './birthLimit.js';
import { SessionStore, type SessionLimits } from './sessionStore.js';
import { guardSubscribes, type SubscribeLimits } from './subscribeGuard.js';
import { SlowSubscribers, type SlowSubscriberLimits } from './slowSubscribers.js';

export interface BrokerOptions {
  host: string;
  port: number;
  users: readonly BrokerUser[];
  maxPayloadBytes: number;
  maxTopicLevels: number;
  /** Bounds on the retained messages of other clients (memory and database). */
  retainedLimits: RetainedLimits;
  /** Inbound QoS 2 bytes one client may have awaiting PUBREL (aedes bounds it as a message count). */
  maxInflightBytesPerClient: number;
  /** What one client may leave unread before it is disconnected (`broker.maxOutgoingBytesPerClient`, `broker.slowClientSeconds`). */
  slowSubscribers: SlowSubscriberLimits;
  /** Where retained messages are kept; undefined: memory only. */
  retainedStore: RetainedStore | undefined;
  /** Our base topic. Its retained messages are not persisted: we re-publish them on start. */
  baseTopic: string;
  /** Topic filters only the daemon's own connection may publish to: `<base>/#` and our discovery configs. */
  ownedTopics: readonly string[];
  /** Our discovery identity: other clients' configs under its prefix may not claim it (live or restored). */
  discovery?: DiscoveryIdentity;
  /** Topics in our namespaces other clients write (station commands, upload relay). */
  clientTopics?: ClientTopics;
  /** Bounds on SUBSCRIBE and on what persistent sessions keep (`broker.maxSubscriptionsPerClient`, ...). */
  sessionLimits: SessionLimits & SubscribeLimits;
  /** Home Assistant's status topic and the birth window: a connection flooding it is refused. */
  birthLimit?: BirthLimitOptions;
  /** `broker.maxClients`: open connections at once, ours included. */
  maxClients: number;
  /** `broker.sysTopics`: $SYS readable by loopback clients with an account. */
  sysTopics: boolean;
  flushIntervalMs: number;
  logger: Logger;
  clock: Clock;
  /** Every other client's publish that the broker accepted, by topic (a silent station's nearby topics, src/station/topicsHeard.ts). */
  onClientPublish?: (topic: string) => void;
}

const NOT_AUTHORIZED = 5;

/**
 * A client must send CONNECT within this time (aedes' default: 30 s). Clients send it at once;
 * idle sockets would otherwise hold one of the broker.maxClients slots for half a minute.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** aedes' error for a topic deeper than maxTopicLevels (publish, subscribe or unsubscribe). */
const TOO_MANY_LEVELS = 'topic has too many levels';

/** Room beyond the payload limit for the longest topic and MQTT 5 properties. */
const PACKET_OVERHEAD_BYTES = 128 * 1024;

function notRunning(): Error {
  return new Error('the embedded MQTT broker is not running');
}

export class EmbeddedBroker implements OwnTraffic {
  readonly #options: BrokerOptions;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #access: BrokerAccess;
  readonly #cap: ConnectionCap;
  readonly #ledger: RetainedLedger;
  readonly #persistence: RetainedPersistence | undefined;
  readonly #sessions: SessionStore;
  readonly #births: BirthLimit | undefined;
  readonly #slow: SlowSubscribers;
  /** Client ids connected now, and how many connections hold each (a takeover briefly has two). */
  readonly #online = new Map<string, number>();
  #broker: Aedes | undefined;
  /** The daemon's own packets in flight through aedes (src/mqtt/inProcessConnection.ts): ours, whatever their topic. */
  readonly #ownPackets = new WeakSet<object>();
  #server: Server | undefined;
  #port = 0;
  rejectedPublishes = 0;
  /** SUBSCRIBE packets refused by broker.maxFiltersPerSubscribe or broker.maxSubscriptionsPerClient. */
  subscribeRefused = 0;
  /** Retained publishes to command or relay topics passed on without the retain flag. */
  retainDropped = 0;

  constructor(options: BrokerOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'broker' });
    this.#throttle = new LogThrottle(this.#log);
    this.#access = new BrokerAccess({
      users: options.users,
      ownedTopics: options.ownedTopics,
      sysTopicsForAccounts: options.sysTopics,
      discovery: options.discovery,
      clientTopics: options.clientTopics,
    });
    this.#ledger = new RetainedLedger(options.retainedLimits, this.#access, options.baseTopic);
    this.#persistence = options.retainedStore
      ? new RetainedPersistence({
          store: options.retainedStore,
          access: this.#access,
          quota: this.#ledger.quota,
          maxPayloadBytes: options.maxPayloadBytes,
          flushIntervalMs: options.flushIntervalMs,
          clock: options.clock,
          log: this.#log,
        })
      : undefined;
    this.#slow = new SlowSubscribers(options.slowSubscribers, this.#throttle);
    this.#births = options.birthLimit && new BirthLimit(options.birthLimit, () => options.clock.now());
    this.#sessions = new SessionStore(options.sessionLimits, (clientId) => this.#online.has(clientId));
    this.#cap = new ConnectionCap(options.maxClients, (socket) =>
      this.#throttle.warn(
        'max-clients',
        { remoteAddress: socket.remoteAddress, maxClients: options.maxClients },
        'MQTT connection refused: broker.maxClients reached',
      ),
    );
  }

  /**
   * The internal login, valid only in this process: a client connection with it owns our topics.
   * The daemon itself needs none (it publishes in process, see OwnTraffic); the name stays reserved.
   */
  get internalUser(): BrokerUser {
    return this.#access.internalUser;
  }

  /** Client id reserved for the internal login: random per process; others presenting it are refused. */
  get internalClientId(): string {
    return this.#access.internalClientId;
  }

  /** Client connections open now (the daemon's own traffic is in process and holds none). */
  get openConnections(): number {
    return this.#cap.open;
  }

  /** Connections closed because broker.maxClients were open. */
  get refusedConnections(): number {
    return this.#cap.refused;
  }

  /** Retained publishes refused by the retained limits (also counted in rejectedPublishes). */
  get retainedRefused(): number {
    return this.#ledger.refused;
  }

  /** Clients disconnected because they left too much unread (broker.maxOutgoingBytesPerClient, broker.slowClientSeconds). */
  get slowClientsDropped(): number {
    return this.#slow.dropped;
  }

  /** Retained messages of other clients currently held, and their payload bytes. */
  get retained(): { messages: number; bytes: number } {
    return { messages: this.#ledger.quota.messages, bytes: this.#ledger.quota.bytes };
  }

  /** Inbound QoS 2 messages awaiting PUBREL: their payload bytes now, and those refused by broker.maxInflightBytes. */
  get inflight(): { bytes: number; refused: number } {
    return { bytes: this.#sessions.inflightBytes, refused: this.#sessions.inflightRefused };
  }

  /** What persistent sessions hold: sessions, and messages dropped or sessions evicted by their limits. */
  get sessions(): { count: number; queueDropped: number; evicted: number } {
    return { count: this.#sessions.sessions, queueDropped: this.#sessions.queueDropped, evicted: this.#sessions.evicted };
  }

  /** The port actually listened on (useful with port 0). */
  get port(): number {
    return this.#port;
  }

  async start(): Promise<void> {
    // 6.0 MB of heap, RSS 120.1 → 113.1 MB (bench/NOTES.md, "mqtt-packet's number cache off").
    skipPacketNumberCache();
    const broker = await this.#createAedes();
    this.#broker = broker;
    broker.on('publish', (packet, client) => this.#onPublish(packet, client));
    broker.on('client', (client) => this.#clientOnline(client.id, 1));
    broker.on('clientDisconnect', (client) => {
      this.#clientOnline(client.id, -1);
      this.#ledger.clientGone(client);
    });
    broker.on('clientError', (client, err) => {
      // aedes refuses over-deep topics itself, before authorizePublish sees them: count those refusals too.
      if (err.message === TOO_MANY_LEVELS) this.rejectedPublishes++;
      if (this.#slow.clientError(client, err)) return;
      this.#throttle.warn(`clientError:${err.message}`, { clientId: client.id, err: err.message }, 'MQTT client error');
    });
    broker.on('connectionError', (_client, err) =>
      this.#throttle.warn(`connError:${err.message}`, { err: err.message }, 'MQTT connection error'),
    );
    try {
      await this.#persistence?.restore(broker);
      await this.#listen(broker);
    } catch (err) {
      // Not started, so nobody calls stop(): aedes' own timers would keep the process alive after the error.
      await this.stop();
      throw err;
    }
    this.#log.info(
      { host: this.#options.host, port: this.#port, authentication: this.#options.users.length > 0 },
      'embedded MQTT broker listening',
    );
  }

  /** aedes with our limits and the access policy as its hooks. */
  #createAedes(): Promise<Aedes> {
    const o = this.#options;
    return Aedes.createBroker({
      maxTopicLevels: Math.min(100, o.maxTopicLevels),
      connectTimeout: CONNECT_TIMEOUT_MS,
      drainTimeout: this.#slow.drainTimeoutMs,
      persistence: this.#sessions,
      maxInflightInbound: Math.max(1, Math.floor(o.maxInflightBytesPerClient / o.maxPayloadBytes)),
      authenticate: (client, username, password, done) => {
        const verdict = this.#access.authenticate(client, username, password);
        if (verdict.ok) return done(null, true);
        const remote = remoteAddress(client);
        this.#throttle.warn(
          `auth:${remote}:${verdict.reason}`,
          { clientId: client.id, username, reason: verdict.reason },
          'MQTT login refused',
        );
        const error = Object.assign(new Error(verdict.reason), { returnCode: verdict.returnCode }) as AuthenticateError;
        return done(error, false);
      },
      authorizePublish: (client, packet, done) => {
        const refusal = this.#publishProblem(client, packet.topic, packet.payload);
        if (!refusal && packet.retain && this.#access.dropsRetain(client, packet.topic)) {
          // Delivered, never kept: its contract needs no retained copy (src/mqtt/clientTopics.ts).
          packet.retain = false;
          this.retainDropped++;
        }
        // The retained quota runs last: earlier refusals reserve nothing.
        const problem = refusal ?? this.#ledger.admit(client, packet);
        if (problem) {
          this.rejectedPublishes++;
          this.#throttle.warn(
            `publish:${problem}`,
            { clientId: client?.id, topic: JSON.stringify(packet.topic.slice(0, 200)) },
            `publish refused: ${problem}`,
          );
          return done(Object.assign(new Error(problem), { returnCode: NOT_AUTHORIZED }));
        }
        done(null);
      },
      authorizeSubscribe: (client, subscription, done) => {
        const refusal = this.#access.subscribeProblem(client, subscription.topic);
        if (!refusal) return done(null, subscription);
        if (refusal.close) this.rejectedPublishes++;
        this.#throttle.warn(
          `subscribe:${refusal.reason}`,
          { clientId: client.id, filter: JSON.stringify(subscription.topic.slice(0, 200)) },
          `subscribe refused: ${refusal.reason}`,
        );
        // A null subscription is a failure code in SUBACK; an error closes the connection.
        return refusal.close ? done(new Error(refusal.reason)) : done(null, null);
      },
      // A retained copy for a SUBSCRIBE, replaced since aedes read it: its replacement reaches the client live.
      authorizeForward: (_client, packet) => (this.#sessions.isStaleRetainedCopy(packet) ? null : packet),
    });
  }

  async #listen(broker: Aedes): Promise<void> {
    const o = this.#options;
    const maxPacketBytes = o.maxPayloadBytes + PACKET_OVERHEAD_BYTES;
    const server = createServer((socket) => this.#accept(broker, socket, maxPacketBytes));
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      const failed = (err: unknown): void =>
        reject(
          explainListenError(
            err,
            'The embedded MQTT broker',
            { host: o.host, port: o.port },
            'If another broker (e.g. Mosquitto) runs there, use it instead: MOWABILITY_BROKER_ENABLED=false ' +
              `MOWABILITY_MQTT_URL=mqtt://127.0.0.1:${o.port}; or move ours with MOWABILITY_BROKER_PORT.`,
          ),
        );
      server.once('error', failed);
      server.listen(o.port, o.host, () => {
        server.off('error', failed);
        resolve();
      });
    });
    server.on('error', (err) => this.#log.error({ err }, 'broker server error'));
    this.#port = (server.address() as AddressInfo).port;
  }

  // The daemon's own traffic (OwnTraffic), through aedes' in-process API instead of a client
  // connection (src/mqtt/inProcessConnection.ts): no packets, no connection slot. Only code in this
  // process reaches it; network clients still pass authenticate, authorizePublish and authorizeSubscribe.

  get running(): boolean {
    return this.#broker !== undefined;
  }

  /** As authorizePublish would for the daemon's connection: its topics are open, the size and depth limits apply. */
  publishOwn(own: OwnPacket, done: (err?: Error) => void): void {
    const broker = this.#broker;
    if (!broker) return done(notRunning());
    const problem = this.#publishProblem(null, own.topic, own.payload);
    if (problem) {
      this.rejectedPublishes++;
      this.#throttle.warn(`publish:${problem}`, { topic: JSON.stringify(own.topic.slice(0, 200)) }, `publish refused: ${problem}`);
      return done(new Error(problem));
    }
    const packet = { cmd: 'publish' as const, topic: own.topic, payload: own.payload, qos: own.qos, retain: own.retain, dup: false };
    this.#ownPackets.add(packet);
    broker.publish(packet, (err) => done(err ?? undefined));
  }

  subscribeOwn(filter: string, deliver: Deliver, done: (err?: Error) => void): void {
    if (this.#broker) this.#broker.subscribe(filter, deliver, done);
    else done(notRunning());
  }

  unsubscribeOwn(filter: string, deliver: Deliver): void {
    this.#broker?.unsubscribe(filter, deliver, () => undefined);
  }

  async *retainedOf(filter: string): AsyncIterable<DeliveredMessage> {
    if (this.#broker) yield* this.#sessions.createRetainedStream(filter) as AsyncIterable<DeliveredMessage>;
  }

  holdsRetained(message: DeliveredMessage): boolean {
    return this.#sessions.holdsRetained(message);
  }

  /** A new TCP connection: refused beyond maxClients, watched for oversized packets, handed to aedes. */
  #accept(broker: Aedes, socket: Socket, maxPacketBytes: number): void {
    if (!this.#cap.admit(socket)) return;
    const watch = new PacketLengthWatch(maxPacketBytes);
    socket.on('data', (chunk: Buffer) => {
      const length = watch.feed(chunk);
      if (length === undefined) return;
      this.rejectedPublishes++;
      this.#throttle.warn(
        'packet-size',
        { remoteAddress: socket.remoteAddress, length },
        'MQTT packet too large (over broker.maxPayloadBytes + 128 KiB) or malformed; connection closed',
      );
      socket.destroy();
    });
    const client = broker.handle(socket);
    this.#slow.watch(client, socket);
    guardSubscribes(
      client,
      this.#options.sessionLimits,
      (clientId) => this.#sessions.subscriptionsOf(clientId),
      (refusal) => {
        this.subscribeRefused++;
        this.#throttle.warn(
          `subscribe-limit:${refusal.setting}`,
          { remoteAddress: socket.remoteAddress, setting: refusal.setting },
          `SUBSCRIBE refused, connection closed: ${refusal.message}`,
        );
      },
    );
  }

  /** Keeps #online current; a connecting client's session becomes the most recently used. */
  #clientOnline(clientId: string, change: 1 | -1): void {
    const count = (this.#online.get(clientId) ?? 0) + change;
    if (count > 0) this.#online.set(clientId, count);
    else this.#online.delete(clientId);
    if (change === 1) this.#sessions.touch(clientId);
  }

  #publishProblem(client: Client | null, topic: string, payload: Buffer | string): string | undefined {
    const size = payloadBytes(payload);
    if (size > this.#options.maxPayloadBytes)
      return `payload of ${size} bytes exceeds broker.maxPayloadBytes = ${this.#options.maxPayloadBytes}`;
    if (topic.split('/').length > this.#options.maxTopicLevels)
      return `more than broker.maxTopicLevels = ${this.#options.maxTopicLevels} topic levels`;
    const access = this.#access.publishProblem(client, topic, payload);
    if (access !== undefined || !client || this.#access.isInternal(client)) return access;
    return this.#births?.problem(client, topic);
  }

  #onPublish(packet: AedesPublishPacket, client: Client | null): void {
    if (client !== null && !packet.topic.startsWith('$')) this.#options.onClientPublish?.(packet.topic);
    if (this.#persistence?.restoring || !packet.retain || packet.topic.startsWith('$')) return;
    const payload = this.#ledger.stored(packet, client, this.#ownPackets.has(packet));
    if (payload && this.#persistence) this.#persistence.record(packet.topic, payload, packet.qos);
  }

  async stop(): Promise<void> {
    const broker = this.#broker;
    const server = this.#server;
    this.#broker = undefined;
    this.#server = undefined;
    if (broker) await new Promise<void>((resolve) => broker.close(() => resolve()));
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await this.#persistence?.stop();
  }
}
