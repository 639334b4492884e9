/**
 * The embedded aedes broker. Like Mosquitto 2 it is anonymous only on
 * loopback (config validation enforces users elsewhere), caps payload size
 * and topic depth, and keeps retained messages across restarts by writing
 * them to SQLite in batches and restoring them before it listens.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import type { Clock } from '../util/clock.js';
import type { RetainedMessage, RetainedStore } from '../store/retainedStore.js';
import { BatchWriter } from './batchWriter.js';
import { checkCredentials, type BrokerUser } from './brokerUsers.js';
import { LogThrottle } from './logThrottle.js';
import { PacketLengthWatch } from './packetLengthWatch.js';
import { RESTORED_OWNER, RetainedQuota, type RetainedLimits } from './retainedQuota.js';
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
  /** Our base topic: only ownClientId may publish under it. */
  baseTopic: string;
  /** Our own client. Its retained messages are not persisted: we re-publish them on start. */
  ownClientId: string;
  flushIntervalMs: number;
  logger: Logger;
  clock: Clock;
}

const NOT_AUTHORIZED = 5;
const BAD_USERNAME_OR_PASSWORD = 4;

/** aedes' error for a topic deeper than maxTopicLevels (publish, subscribe or unsubscribe). */
const TOO_MANY_LEVELS = 'topic has too many levels';

export class EmbeddedBroker {
  readonly #options: BrokerOptions;
  readonly #log: Logger;
  readonly #throttle: LogThrottle;
  readonly #pending = new Map<string, RetainedMessage>();
  readonly #writer: BatchWriter;
  /** Credentials of our own client, valid only in this process. */
  readonly internalUser: BrokerUser = { username: 'mowability-internal', password: randomBytes(24).toString('base64url') };
  #broker: Aedes | undefined;
  #server: Server | undefined;
  #port = 0;
  #restoring = false;
  readonly #quota: RetainedQuota;
  rejectedPublishes = 0;
  /** Retained publishes refused by the retained limits (also counted in rejectedPublishes). */
  retainedRefused = 0;

  constructor(options: BrokerOptions) {
    this.#options = options;
    this.#log = options.logger.child({ module: 'broker' });
    this.#throttle = new LogThrottle(this.#log);
    this.#writer = new BatchWriter(() => this.#persist(), options.flushIntervalMs, this.#log);
    this.#quota = new RetainedQuota(options.retainedLimits);
  }

  /** Retained messages of other clients currently held, and their payload bytes. */
  get retained(): { messages: number; bytes: number } {
    return { messages: this.#quota.messages, bytes: this.#quota.bytes };
  }

  /** The port actually listened on (useful with port 0). */
  get port(): number {
    return this.#port;
  }

  get needsCredentials(): boolean {
    return this.#options.users.length > 0;
  }

  async start(): Promise<void> {
    const o = this.#options;
    const broker = await Aedes.createBroker({
      maxTopicLevels: Math.min(100, o.maxTopicLevels),
      maxInflightInbound: Math.max(1, Math.floor(o.maxInflightBytesPerClient / o.maxPayloadBytes)),
      authenticate: (client, username, password, done) => {
        if (o.users.length === 0) return done(null, true);
        const ok = checkCredentials([...o.users, this.internalUser], username, password);
        if (ok) return done(null, true);
        this.#throttle.warn(`auth:${client.conn && 'remoteAddress' in client.conn ? client.conn.remoteAddress : ''}`, { clientId: client.id, username }, 'MQTT login refused');
        const error = Object.assign(new Error('bad username or password'), { returnCode: BAD_USERNAME_OR_PASSWORD }) as AuthenticateError;
        return done(error, false);
      },
      authorizePublish: (client, packet, done) => {
        const problem = this.#publishProblem(client, packet.topic, packet.payload) ?? this.#retainedProblem(client, packet);
        if (problem) {
          this.rejectedPublishes++;
          this.#throttle.warn(`publish:${problem}`, { clientId: client?.id, topic: packet.topic.slice(0, 200) }, `publish refused: ${problem}`);
          return done(Object.assign(new Error(problem), { returnCode: NOT_AUTHORIZED }));
        }
        done(null);
      },
    });
    this.#broker = broker;
    broker.on('publish', (packet, client) => this.#onPublish(packet, client));
    broker.on('clientError', (client, err) => {
      // aedes refuses over-deep topics itself, before authorizePublish sees them: count those refusals too.
      if (err.message === TOO_MANY_LEVELS) this.rejectedPublishes++;
      this.#throttle.warn(`clientError:${err.message}`, { clientId: client.id, err: err.message }, 'MQTT client error');
    });
    broker.on('connectionError', (_client, err) => this.#throttle.warn(`connError:${err.message}`, { err: err.message }, 'MQTT connection error'));
    await this.#restore(broker);

    // Payload limit plus room for the longest topic and MQTT 5 properties.
    const maxPacketBytes = o.maxPayloadBytes + 128 * 1024;
    const server = createServer((socket) => {
      const watch = new PacketLengthWatch(maxPacketBytes);
      socket.on('data', (chunk: Buffer) => {
        const length = watch.feed(chunk);
        if (length === undefined) return;
        this.rejectedPublishes++;
        this.#throttle.warn('packet-size', { remoteAddress: socket.remoteAddress, length }, 'MQTT packet too large or malformed; connection closed');
        socket.destroy();
      });
      broker.handle(socket);
    });
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

  #isOurs(topic: string): boolean {
    const base = this.#options.baseTopic;
    return topic === base || topic.startsWith(`${base}/`);
  }

  #publishProblem(client: Client | null, topic: string, payload: Buffer | string): string | undefined {
    if (topic.startsWith('$')) return 'topics starting with $ are reserved';
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size > this.#options.maxPayloadBytes) return `payload of ${size} bytes exceeds ${this.#options.maxPayloadBytes}`;
    if (topic.split('/').length > this.#options.maxTopicLevels) return `more than ${this.#options.maxTopicLevels} topic levels`;
    if (client && this.#isOurs(topic) && client.id !== this.#options.ownClientId) {
      return `only mowability publishes under ${this.#options.baseTopic}/`;
    }
    return undefined;
  }

  /**
   * Reserves quota for a retained publish of another client before aedes stores it (in memory, then
   * here in SQLite), so a refused one is kept nowhere. Runs last: earlier refusals reserve nothing.
   */
  #retainedProblem(client: Client | null, packet: { topic: string; payload: Buffer | string; retain: boolean }): string | undefined {
    if (!packet.retain || !client || this.#isOurs(packet.topic) || client.id === this.#options.ownClientId) return undefined;
    const size = typeof packet.payload === 'string' ? Buffer.byteLength(packet.payload) : packet.payload.length;
    const problem = this.#quota.admit(packet.topic, client.id, size);
    if (problem) this.retainedRefused++;
    return problem;
  }

  #onPublish(packet: AedesPublishPacket, client: Client | null): void {
    if (this.#restoring || !packet.retain || packet.topic.startsWith('$')) return;
    const ours = this.#isOurs(packet.topic) || client?.id === this.#options.ownClientId;
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
    await this.#trimToQuota(store);
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
   * Accounts the stored messages, oldest first, and deletes those beyond the retained limits (a
   * database filled before the limits existed, or limits lowered since) before any payload is
   * loaded: an attacked database must not be read into memory whole.
   */
  async #trimToQuota(store: RetainedStore): Promise<void> {
    const stored = await store.sizes();
    const dropped = stored.filter(({ topic, bytes }) => this.#quota.admit(topic, RESTORED_OWNER, bytes) !== undefined);
    if (dropped.length === 0) return;
    const deletes = new Map(dropped.map(({ topic }) => [topic, { topic, payload: Buffer.alloc(0), qos: 0 as const }]));
    await store.save(deletes, this.#options.clock.now());
    this.#log.warn(
      { kept: stored.length - dropped.length, dropped: dropped.length, ...this.retained },
      'stored retained messages exceed broker.maxRetainedMessages / broker.maxRetainedBytes; the newest ones were deleted',
    );
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
