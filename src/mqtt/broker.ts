/**
 * The embedded aedes broker. Like Mosquitto 2 it is anonymous only on
 * loopback (config validation enforces users elsewhere), caps connections,
 * payload size and topic depth, leaves our topics to the daemon's own
 * authenticated connection (BrokerAccess), and keeps retained messages
 * across restarts by writing them to SQLite in batches and restoring them
 * before it listens.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import type { RetainedMessage, RetainedStore } from '../store/retainedStore.js';
import { BatchWriter } from './batchWriter.js';
import { BrokerAccess, remoteAddress, type DiscoveryIdentity } from './brokerAccess.js';
import type { BrokerUser } from './brokerUsers.js';
import { ConnectionCap } from './connectionCap.js';
import { LogThrottle } from '../util/logThrottle.js';
import { PacketLengthWatch } from './packetLengthWatch.js';
import { RESTORED_OWNER, RetainedQuota, type Entry, type RetainedLimits } from './retainedQuota.js';
import { explainListenError } from '../util/listenError.js';

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
  /** Where retained messages are kept; undefined: memory only. */
  retainedStore: RetainedStore | undefined;
  /** Our base topic. Its retained messages are not persisted: we re-publish them on start. */
  baseTopic: string;
  /** Topic filters only the daemon's own connection may publish to: `<base>/#` and our discovery configs. */
  ownedTopics: readonly string[];
  /** Our discovery identity: other clients' configs under its prefix may not claim it (live or restored). */
  discovery?: DiscoveryIdentity;
  /** `broker.maxClients`: open connections at once, ours included. */
  maxClients: number;
  /** `broker.sysTopics`: $SYS readable by loopback clients with an account. */
  sysTopics: boolean;
  flushIntervalMs: number;
  logger: Logger;
  clock: Clock;
}

const NOT_AUTHORIZED = 5;

/**
 * A client must send CONNECT within this time (aedes' default: 30 s). Clients send it at once;
 * idle sockets would otherwise hold one of the broker.maxClients slots for half a minute.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** aedes' error for a topic deeper than maxTopicLevels (publish, subscribe or unsubscribe). */
const TOO_MANY_LEVELS = 'topic has too many levels';

function payloadBytes(payload: Buffer | string): number {
  return typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
}

export class EmbeddedBroker {
  readonly #options: BrokerOptions;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #pending = new Map<string, RetainedMessage>();
  readonly #writer: BatchWriter;
  readonly #access: BrokerAccess;
  readonly #cap: ConnectionCap;
  #broker: Aedes | undefined;
  #server: Server | undefined;
  #port = 0;
  #restoring = false;
  readonly #quota: RetainedQuota;
  /**
   * Retained publishes admitted by authorizePublish but not yet seen stored, per client. aedes can
   * still drop one afterwards (a QoS 1 PUBACK that cannot be written, a QoS 2 message past
   * maxInflightInbound, a failed store); each of those closes the connection, so what is still
   * pending when the client goes is undone, or the quota would leak.
   */
  readonly #unconfirmed = new Map<Client, Map<string, { admitted: Entry | undefined; previous: Entry | undefined }>>();
  rejectedPublishes = 0;
  /** Retained publishes refused by the retained limits (also counted in rejectedPublishes). */
  retainedRefused = 0;

  constructor(options: BrokerOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'broker' });
    this.#throttle = new LogThrottle(this.#log);
    this.#writer = new BatchWriter(() => this.#persist(), options.flushIntervalMs, this.#log);
    this.#quota = new RetainedQuota(options.retainedLimits);
    this.#access = new BrokerAccess({ users: options.users, ownedTopics: options.ownedTopics, sysTopicsForAccounts: options.sysTopics, discovery: options.discovery });
    this.#cap = new ConnectionCap(options.maxClients, (socket) =>
      this.#throttle.warn('max-clients', { remoteAddress: socket.remoteAddress, maxClients: options.maxClients }, 'MQTT connection refused: broker.maxClients reached'),
    );
  }

  /** Credentials of the daemon's own connection, valid only in this process. */
  get internalUser(): BrokerUser {
    return this.#access.internalUser;
  }

  /** Client id of the daemon's own connection: random per process; others presenting it are refused. */
  get internalClientId(): string {
    return this.#access.internalClientId;
  }

  /** Connections closed because broker.maxClients were open. */
  get refusedConnections(): number {
    return this.#cap.refused;
  }

  /** Retained messages of other clients currently held, and their payload bytes. */
  get retained(): { messages: number; bytes: number } {
    return { messages: this.#quota.messages, bytes: this.#quota.bytes };
  }

  /** The port actually listened on (useful with port 0). */
  get port(): number {
    return this.#port;
  }

  async start(): Promise<void> {
    const o = this.#options;
    const broker = await Aedes.createBroker({
      maxTopicLevels: Math.min(100, o.maxTopicLevels),
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxInflightInbound: Math.max(1, Math.floor(o.maxInflightBytesPerClient / o.maxPayloadBytes)),
      authenticate: (client, username, password, done) => {
        const verdict = this.#access.authenticate(client, username, password);
        if (verdict.ok) return done(null, true);
        const remote = remoteAddress(client);
        this.#throttle.warn(`auth:${remote}:${verdict.reason}`, { clientId: client.id, username, reason: verdict.reason }, 'MQTT login refused');
        const error = Object.assign(new Error(verdict.reason), { returnCode: verdict.returnCode }) as AuthenticateError;
        return done(error, false);
      },
      authorizePublish: (client, packet, done) => {
        const problem = this.#publishProblem(client, packet.topic, packet.payload) ?? this.#retainedProblem(client, packet);
        if (problem) {
          this.rejectedPublishes++;
          this.#throttle.warn(`publish:${problem}`, { clientId: client?.id, topic: JSON.stringify(packet.topic.slice(0, 200)) }, `publish refused: ${problem}`);
          return done(Object.assign(new Error(problem), { returnCode: NOT_AUTHORIZED }));
        }
        done(null);
      },
      authorizeSubscribe: (client, subscription, done) => {
        const refusal = this.#access.subscribeProblem(client, subscription.topic);
        if (!refusal) return done(null, subscription);
        if (refusal.close) this.rejectedPublishes++;
        this.#throttle.warn(`subscribe:${refusal.reason}`, { clientId: client.id, filter: JSON.stringify(subscription.topic.slice(0, 200)) }, `subscribe refused: ${refusal.reason}`);
        // A null subscription is a failure code in SUBACK; an error closes the connection.
        return refusal.close ? done(new Error(refusal.reason)) : done(null, null);
      },
    });
    this.#broker = broker;
    broker.on('publish', (packet, client) => this.#onPublish(packet, client));
    broker.on('clientDisconnect', (client) => this.#undoUnconfirmed(client));
    broker.on('clientError', (client, err) => {
      // aedes refuses over-deep topics itself, before authorizePublish sees them: count those refusals too.
      if (err.message === TOO_MANY_LEVELS) this.rejectedPublishes++;
      this.#throttle.warn(`clientError:${err.message}`, { clientId: client.id, err: err.message }, 'MQTT client error');
    });
    broker.on('connectionError', (_client, err) => this.#throttle.warn(`connError:${err.message}`, { err: err.message }, 'MQTT connection error'));
    await this.#restore(broker);

    // Payload limit plus room for the longest topic and MQTT 5 properties.
    const maxPacketBytes = o.maxPayloadBytes + 128 * 1024;
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
    this.#log.info({ host: o.host, port: this.#port, authentication: o.users.length > 0 }, 'embedded MQTT broker listening');
  }

  /** A new TCP connection: refused beyond maxClients, watched for oversized packets, handed to aedes. */
  #accept(broker: Aedes, socket: Socket, maxPacketBytes: number): void {
    if (!this.#cap.admit(socket)) return;
    const watch = new PacketLengthWatch(maxPacketBytes);
    socket.on('data', (chunk: Buffer) => {
      const length = watch.feed(chunk);
      if (length === undefined) return;
      this.rejectedPublishes++;
      this.#throttle.warn('packet-size', { remoteAddress: socket.remoteAddress, length }, 'MQTT packet too large (over broker.maxPayloadBytes + 128 KiB) or malformed; connection closed');
      socket.destroy();
    });
    broker.handle(socket);
  }

  #isOurs(topic: string): boolean {
    const base = this.#options.baseTopic;
    return topic === base || topic.startsWith(`${base}/`);
  }

  #publishProblem(client: Client | null, topic: string, payload: Buffer | string): string | undefined {
    const size = payloadBytes(payload);
    if (size > this.#options.maxPayloadBytes) return `payload of ${size} bytes exceeds broker.maxPayloadBytes = ${this.#options.maxPayloadBytes}`;
    if (topic.split('/').length > this.#options.maxTopicLevels) return `more than broker.maxTopicLevels = ${this.#options.maxTopicLevels} topic levels`;
    return this.#access.publishProblem(client, topic, payload);
  }

  /**
   * Reserves quota for a retained publish of another client before aedes stores it (in memory, then
   * here in SQLite), so a refused one is kept nowhere. Runs last: earlier refusals reserve nothing.
   */
  #retainedProblem(client: Client | null, packet: { topic: string; payload: Buffer | string; retain: boolean }): string | undefined {
    if (!packet.retain || !client || this.#isOurs(packet.topic) || this.#access.isInternal(client)) return undefined;
    const size = payloadBytes(packet.payload);
    const previous = this.#quota.entry(packet.topic);
    const problem = this.#quota.admit(packet.topic, this.#access.quotaOwner(client), size);
    if (problem) {
      this.retainedRefused++;
      return problem;
    }
    const unconfirmed = this.#unconfirmed.get(client) ?? new Map<string, { admitted: Entry | undefined; previous: Entry | undefined }>();
    this.#unconfirmed.set(client, unconfirmed);
    const earlier = unconfirmed.get(packet.topic);
    unconfirmed.set(packet.topic, { admitted: this.#quota.entry(packet.topic), previous: earlier ? earlier.previous : previous });
    return undefined;
  }

  /** The client is gone: its admitted publishes that were never stored give their quota back. */
  #undoUnconfirmed(client: Client): void {
    const unconfirmed = this.#unconfirmed.get(client);
    this.#unconfirmed.delete(client);
    for (const [topic, { admitted, previous }] of unconfirmed ?? []) this.#quota.undo(topic, admitted, previous);
  }

  #onPublish(packet: AedesPublishPacket, client: Client | null): void {
    if (this.#restoring || !packet.retain || packet.topic.startsWith('$')) return;
    const ours = this.#isOurs(packet.topic) || this.#access.isInternal(client);
    if (!ours && client) {
      // Stored: confirm what authorizePublish admitted (and count it again if a disconnect undid it first).
      const unconfirmed = this.#unconfirmed.get(client);
      unconfirmed?.delete(packet.topic);
      if (unconfirmed?.size === 0) this.#unconfirmed.delete(client);
      this.#quota.settle(packet.topic, this.#access.quotaOwner(client), payloadBytes(packet.payload));
    }
    // Ours replaced or deleted another client's message (e.g. the stale discovery sweep): free its
    // share and delete it from the database, or it would come back on restart.
    if (ours && this.#quota.release(packet.topic) === 0) return;
    if (!this.#options.retainedStore) return;
    const payload = ours ? Buffer.alloc(0) : Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    this.#pending.set(packet.topic, { topic: packet.topic, payload: Buffer.from(payload), qos: packet.qos });
    this.#writer.markDirty();
  }

  async #restore(broker: Aedes): Promise<void> {
    const store = this.#options.retainedStore;
    if (!store) return;
    await this.#dropUnrestorable(store);
    const messages = await store.loadAll();
    this.#restoring = true;
    try {
      for (const message of messages) {
        await new Promise<void>((resolve) => {
          broker.publish({ cmd: 'publish', topic: message.topic, payload: message.payload, qos: message.qos, retain: true, dup: false }, (err) => {
            if (err) this.#log.warn({ err, topic: message.topic }, 'could not restore a retained message');
            resolve();
          });
        });
      }
    } finally {
      this.#restoring = false;
    }
    if (messages.length > 0) this.#log.info({ count: messages.length }, 'retained messages restored');
  }

  /**
   * Before any payload is loaded (an attacked database must not be read into memory whole), deletes
   * the stored messages that must not come back: those on our topics or with bad topic text (stored
   * by a version that let other clients publish there), then, oldest kept first, those beyond the
   * retained limits (a database filled before the limits existed, or limits lowered since).
   */
  async #dropUnrestorable(store: RetainedStore): Promise<void> {
    const stored = await store.sizes();
    const forbidden = new Set<string>();
    const overQuota = new Set<string>();
    for (const { topic, bytes } of stored) {
      const problem = await this.#restoreProblem(store, topic, bytes);
      if (problem) {
        forbidden.add(topic);
        this.#log.warn({ topic: JSON.stringify(topic.slice(0, 200)), problem }, 'stored retained message dropped');
      } else if (this.#quota.admit(topic, RESTORED_OWNER, bytes) !== undefined) overQuota.add(topic);
    }
    if (forbidden.size + overQuota.size === 0) return;
    const deletes = new Map([...forbidden, ...overQuota].map((topic) => [topic, { topic, payload: Buffer.alloc(0), qos: 0 as const }]));
    await store.save(deletes, this.#options.clock.now());
    if (overQuota.size > 0) {
      this.#log.warn(
        { kept: stored.length - forbidden.size - overQuota.size, dropped: overQuota.size, ...this.retained },
        'stored retained messages exceed broker.maxRetainedMessages / broker.maxRetainedBytes; the newest ones were deleted',
      );
    }
  }

  /**
   * Reads a payload only under the discovery prefix, one row at a time and within the payload
   * limit, so an attacked database is never loaded whole; a bigger "config" there is dropped.
   */
  async #restoreProblem(store: RetainedStore, topic: string, bytes: number): Promise<string | undefined> {
    if (!this.#access.isDiscoveryTopic(topic)) return this.#access.restoreProblem(topic);
    if (bytes > this.#options.maxPayloadBytes) return `a discovery config over broker.maxPayloadBytes (${this.#options.maxPayloadBytes})`;
    return this.#access.restoreProblem(topic, (await store.payload(topic)) ?? '');
  }

  async #persist(): Promise<void> {
    const store = this.#options.retainedStore;
    if (!store || this.#pending.size === 0) return;
    const batch = new Map(this.#pending);
    this.#pending.clear();
    try {
      await store.save(batch, this.#options.clock.now());
    } catch (err) {
      for (const [topic, message] of batch) if (!this.#pending.has(topic)) this.#pending.set(topic, message);
      throw err;
    }
  }

  async stop(): Promise<void> {
    const broker = this.#broker;
    const server = this.#server;
    this.#broker = undefined;
    this.#server = undefined;
    if (broker) await new Promise<void>((resolve) => broker.close(() => resolve()));
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await this.#writer.stop();
  }
}
