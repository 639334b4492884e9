/**
 * aedes' memory persistence with bounds on what persistent sessions (clean: false) keep. Without
 * them one anonymous client with 50,000 filters added 190 MB that stayed after it disconnected,
 * and QoS 1/2 messages queued for an offline session without limit. Bounded here:
 *
 * - how many sessions keep subscriptions (`broker.maxPersistentSessions`): a new one past it
 *   replaces the offline session that connected least recently; when all are online, the new
 *   session's subscriptions are not kept beyond its connection;
 * - how many filters one session keeps (`broker.maxSubscriptionsPerClient`);
 * - how many messages and bytes wait for one offline session (`broker.maxQueued*PerSession`):
 *   past them a message is dropped for that session only, like Mosquitto's max_queued_messages.
 *
 * - how many bytes of inbound QoS 2 messages wait for PUBREL over all clients together
 *   (`broker.maxInflightBytes`; aedes bounds one client, as a count): 60 anonymous clients
 *   × 120 × 60 KB grew the daemon from 106 to 565 MB. A message past it is not stored: aedes
 *   then drops it and disconnects its sender, the newest offender (the daemon never uses QoS 2).
 *
 * Online clients' queues are aedes' delivery bookkeeping (cleared by their acknowledgements),
 * so they are counted but never cut.
 *
 * It also knows which retained message each topic holds now, so that a retained copy read for a
 * SUBSCRIBE and replaced before it was handed over is dropped instead of following its newer
 * replacement (`isStaleRetainedCopy`, docs/mqtt.md "What a subscriber can rely on").
 */
import MemoryPersistence from 'aedes-persistence/asyncPersistence.js';
import type { Client, Subscription } from 'aedes';

export interface SessionLimits {
  maxSessions: number;
  maxSubscriptionsPerSession: number;
  maxQueuedMessages: number;
  maxQueuedBytes: number;
  /** Payload bytes of inbound QoS 2 messages awaiting PUBREL, all clients together. */
  maxInflightBytes: number;
}

type QueuedPacket = Parameters<MemoryPersistence['outgoingEnqueue']>[1];

/** What a message handed over by aedes shows of itself (its packet, or the in-process `DeliveredMessage`). */
export interface RetainedCandidate {
  readonly topic: string;
  readonly payload: unknown;
  readonly retain?: boolean;
  readonly brokerId?: string | null;
}

/**
 * A retained copy aedes hands a client for its SUBSCRIBE: aedes marks it `brokerId: null` (its own
 * `lib/handlers/subscribe.js`, so that it is not taken for a duplicate). Live messages carry the
 * broker's id, also when they keep their retain flag (MQTT 5 retain-as-published).
 */
export function isRetainedCopy(packet: RetainedCandidate): boolean {
  return packet.retain === true && packet.brokerId === null;
}

interface Queue {
  messages: number;
  bytes: number;
}

function asBytes(payload: unknown): Uint8Array | undefined {
  if (typeof payload === 'string') return Buffer.from(payload);
  return payload instanceof Uint8Array ? payload : undefined;
}

function packetBytes(packet: object): number {
  const payload = 'payload' in packet ? packet.payload : undefined;
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  return payload instanceof Uint8Array ? payload.length : 0;
}

function messageIdOf(packet: object): number {
  return 'messageId' in packet && typeof packet.messageId === 'number' ? packet.messageId : 0;
}

export class SessionStore extends MemoryPersistence {
  readonly #limits: SessionLimits;
  readonly #isOnline: (clientId: string) => boolean;
  /** Filters kept per session, in the order the sessions last connected (oldest first). */
  readonly #sessions = new Map<string, Set<string>>();
  readonly #queues = new Map<string, Queue>();
  /** The payload each retained topic holds now: the very object aedes' store keeps and hands over. */
  readonly #retainedNow = new Map<string, unknown>();
  /** Messages not queued for an offline session past its limits. */
  queueDropped = 0;
  /** Offline sessions dropped to make room for a new one. */
  evicted = 0;
  /** Payload bytes of each client's inbound QoS 2 messages awaiting PUBREL, by message id. */
  readonly #inflight = new Map<string, Map<number, number>>();
  #inflightBytes = 0;
  /** Inbound QoS 2 messages refused by broker.maxInflightBytes. */
  inflightRefused = 0;

  constructor(limits: SessionLimits, isOnline: (clientId: string) => boolean) {
    super();
    this.#limits = limits;
    this.#isOnline = isOnline;
  }

  /** Sessions keeping subscriptions now. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** The filters a session keeps (empty for none). */
  subscriptionsOf(clientId: string): ReadonlySet<string> {
    return this.#sessions.get(clientId) ?? new Set();
  }

  /** Payload bytes of inbound QoS 2 messages awaiting PUBREL now, all clients together. */
  get inflightBytes(): number {
    return this.#inflightBytes;
  }

  /** Messages and payload bytes queued for a client. */
  queued(clientId: string): Queue {
    return this.#queues.get(clientId) ?? { messages: 0, bytes: 0 };
  }

  /** A client connected: its session becomes the most recently used. */
  touch(clientId: string): void {
    const session = this.#sessions.get(clientId);
    if (!session) return;
    this.#sessions.delete(clientId);
    this.#sessions.set(clientId, session);
  }

  override async addSubscriptions(client: Client, subs: Subscription[]): Promise<void> {
    let session = this.#sessions.get(client.id);
    if (!session) {
      if (!(await this.#makeRoom())) return;
      session = new Set();
      this.#sessions.set(client.id, session);
    }
    const kept: Subscription[] = [];
    for (const sub of subs) {
      if (!session.has(sub.topic)) {
        if (session.size >= this.#limits.maxSubscriptionsPerSession) continue;
        session.add(sub.topic);
      }
      kept.push(sub);
    }
    if (session.size === 0) this.#sessions.delete(client.id);
    if (kept.length > 0) await super.addSubscriptions(client, kept);
  }

  override async removeSubscriptions(client: Client, subs: string[]): Promise<void> {
    const session = this.#sessions.get(client.id);
    for (const topic of subs) session?.delete(topic);
    if (session?.size === 0) this.#sessions.delete(client.id);
    await super.removeSubscriptions(client, subs);
  }

  override async cleanSubscriptions(client: Client): Promise<void> {
    this.#sessions.delete(client.id);
    await super.cleanSubscriptions(client);
  }

  override async outgoingEnqueue(sub: { clientId: string }, packet: QueuedPacket): Promise<void> {
    if (this.#admit(sub.clientId, packet)) await super.outgoingEnqueue(sub, packet);
  }

  override async outgoingEnqueueCombi(subs: Array<{ clientId: string }>, packet: QueuedPacket): Promise<void> {
    const admitted = subs.filter((sub) => this.#admit(sub.clientId, packet));
    if (admitted.length > 0) await super.outgoingEnqueueCombi(admitted, packet);
  }

  override async storeRetained(packet: QueuedPacket): Promise<void> {
    // As the memory store decides (an empty payload deletes), and like it before its first await.
    const { topic, payload } = packet as RetainedCandidate;
    if (packetBytes(packet) === 0) this.#retainedNow.delete(topic);
    else this.#retainedNow.set(topic, payload);
    await super.storeRetained(packet);
  }

  /**
   * Whether `message`, read from this store's retained messages, is still what its topic holds.
   * aedes reads a SUBSCRIBE's retained messages ahead of handing them over, and the subscription is
   * live before the read: a message stored after the read reaches the subscriber live, so the copy
   * read before it must not follow it. Told by the payload object, which the store keeps from the
   * publish and aedes hands over as it is; failing that (a copy), by its bytes: a copy equal to what
   * the topic holds is not older, whichever publish it came from.
   */
  holdsRetained(message: RetainedCandidate): boolean {
    const now = this.#retainedNow.get(message.topic);
    if (now === message.payload) return true;
    const [held, copy] = [asBytes(now), asBytes(message.payload)];
    return held !== undefined && copy !== undefined && Buffer.compare(held, copy) === 0;
  }

  /** A retained copy for a SUBSCRIBE whose topic was replaced (or deleted) since it was read. */
  isStaleRetainedCopy(packet: RetainedCandidate): boolean {
    return isRetainedCopy(packet) && !this.holdsRetained(packet);
  }

  override async incomingStorePacket(client: Client, packet: QueuedPacket): Promise<void> {
    const messageId = messageIdOf(packet);
    const held = this.#inflight.get(client.id) ?? new Map<number, number>();
    const bytes = packetBytes(packet);
    const replaced = held.get(messageId) ?? 0;
    if (this.#inflightBytes - replaced + bytes > this.#limits.maxInflightBytes) {
      this.inflightRefused++;
      throw new Error(`QoS 2 messages awaiting PUBREL would pass broker.maxInflightBytes = ${this.#limits.maxInflightBytes}`);
    }
    // Reserved before the first await: aedes stores a whole read chunk's messages concurrently.
    held.set(messageId, bytes);
    this.#inflight.set(client.id, held);
    this.#inflightBytes += bytes - replaced;
    try {
      await super.incomingStorePacket(client, packet);
    } catch (err) {
      this.#release(client.id, messageId);
      throw err;
    }
  }

  /** Forgets one held message's bytes. */
  #release(clientId: string, messageId: number): void {
    const held = this.#inflight.get(clientId);
    this.#inflightBytes -= held?.get(messageId) ?? 0;
    held?.delete(messageId);
    if (held?.size === 0) this.#inflight.delete(clientId);
  }

  override async incomingDelPacket(client: Client, packet: QueuedPacket): Promise<void> {
    await super.incomingDelPacket(client, packet);
    this.#release(client.id, messageIdOf(packet));
  }

  override async cleanIncoming(client: Client): Promise<void> {
    await super.cleanIncoming(client);
    for (const bytes of this.#inflight.get(client.id)?.values() ?? []) this.#inflightBytes -= bytes;
    this.#inflight.delete(client.id);
  }

  override async outgoingClearMessageId(client: Client, packet: QueuedPacket): Promise<QueuedPacket> {
    // aedes asks to clear a QoS 1 message authorizeForward dropped; a retained copy was never queued,
    // and its undefined message id would match a queued message not yet sent (which then failed).
    if (isRetainedCopy(packet as RetainedCandidate)) return undefined as unknown as QueuedPacket;
    const cleared = await super.outgoingClearMessageId(client, packet);
    const queue = this.#queues.get(client.id);
    if (cleared && queue) {
      queue.messages--;
      queue.bytes -= packetBytes(cleared);
      if (queue.messages <= 0) this.#queues.delete(client.id);
    }
    return cleared;
  }

  /** Counts a message for `clientId`'s queue, or refuses it when the client is offline and its queue full. */
  #admit(clientId: string, packet: QueuedPacket): boolean {
    const queue = this.queued(clientId);
    const bytes = packetBytes(packet);
    const full = queue.messages >= this.#limits.maxQueuedMessages || queue.bytes + bytes > this.#limits.maxQueuedBytes;
    if (full && !this.#isOnline(clientId)) {
      this.queueDropped++;
      return false;
    }
    this.#queues.set(clientId, { messages: queue.messages + 1, bytes: queue.bytes + bytes });
    return true;
  }

  /** Frees a session slot if one is needed: drops the offline session that connected least recently. */
  async #makeRoom(): Promise<boolean> {
    if (this.#sessions.size < this.#limits.maxSessions) return true;
    const victim = [...this.#sessions.keys()].find((clientId) => !this.#isOnline(clientId));
    if (victim === undefined) return false;
    const client = { id: victim } as Client;
    await this.cleanSubscriptions(client);
    for await (const packet of this.outgoingStream(client)) await this.outgoingClearMessageId(client, packet as QueuedPacket);
    this.#queues.delete(victim);
    await this.cleanIncoming(client);
    this.evicted++;
    return true;
  }
}
