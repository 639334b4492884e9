/**
 * Accounting of the retained messages other clients leave on the embedded
 * broker: quota is reserved when a retained publish is authorized (before
 * aedes stores it, so a refused one is kept nowhere), confirmed when aedes
 * stored it, and given back when aedes dropped it or our own publish
 * replaced it.
 */
import type { AedesPublishPacket, Client } from 'aedes';
import type { BrokerAccess } from './brokerAccess.js';
import { isStationCommandTopic } from './topics.js';
import { RetainedQuota, type Entry, type RetainedLimits } from './retainedQuota.js';

interface Unconfirmed {
  admitted: Entry | undefined;
  previous: Entry | undefined;
}

export function payloadBytes(payload: Buffer | string): number {
  return typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
}

export class RetainedLedger {
  readonly quota: RetainedQuota;
  readonly #access: BrokerAccess;
  readonly #baseTopic: string;
  /**
   * Retained publishes admitted by authorizePublish but not yet seen stored, per client. aedes can
   * still drop one afterwards (a QoS 1 PUBACK that cannot be written, a QoS 2 message past
   * maxInflightInbound, a failed store); each of those closes the connection, so what is still
   * pending when the client goes is undone, or the quota would leak.
   */
  readonly #unconfirmed = new Map<Client, Map<string, Unconfirmed>>();
  /** Retained publishes refused by the retained limits. */
  refused = 0;

  constructor(limits: RetainedLimits, access: BrokerAccess, baseTopic: string) {
    this.quota = new RetainedQuota(limits);
    this.#access = access;
    this.#baseTopic = baseTopic;
  }

  /**
   * Under our base topic: the daemon's own, never counted or persisted; except a station's command
   * topic, which other clients write, so it counts against their share like any topic of theirs.
   */
  isOurs(topic: string): boolean {
    return (topic === this.#baseTopic || topic.startsWith(`${this.#baseTopic}/`)) && !isStationCommandTopic(topic);
  }

  /** authorizePublish: reserves quota for another client's retained publish; a refusal reason when over a limit. */
  admit(client: Client | null, packet: { topic: string; payload: Buffer | string; retain: boolean }): string | undefined {
    if (!packet.retain || !client || this.isOurs(packet.topic) || this.#access.isInternal(client)) return undefined;
    const previous = this.quota.entry(packet.topic);
    const problem = this.quota.admit(packet.topic, this.#access.quotaOwner(client), payloadBytes(packet.payload));
    if (problem) {
      this.refused++;
      return problem;
    }
    const unconfirmed = this.#unconfirmed.get(client) ?? new Map<string, Unconfirmed>();
    this.#unconfirmed.set(client, unconfirmed);
    const earlier = unconfirmed.get(packet.topic);
    unconfirmed.set(packet.topic, { admitted: this.quota.entry(packet.topic), previous: earlier ? earlier.previous : previous });
    return undefined;
  }

  /** The client is gone: its admitted publishes that were never stored give their quota back. */
  clientGone(client: Client): void {
    const unconfirmed = this.#unconfirmed.get(client);
    this.#unconfirmed.delete(client);
    for (const [topic, { admitted, previous }] of unconfirmed ?? []) this.quota.undo(topic, admitted, previous);
  }

  /**
   * aedes stored a retained message. Returns what to persist: the payload of another client's
   * message, an empty payload (a delete) where ours replaced another's, or undefined for nothing.
   * `own`: the daemon published it in process (no client; src/mqtt/inProcessConnection.ts).
   */
  stored(packet: AedesPublishPacket, client: Client | null, own = false): Buffer | undefined {
    const ours = own || this.isOurs(packet.topic) || this.#access.isInternal(client);
    if (!ours && client) {
      // Stored: confirm what authorizePublish admitted (and count it again if a disconnect undid it first).
      const unconfirmed = this.#unconfirmed.get(client);
      unconfirmed?.delete(packet.topic);
      if (unconfirmed?.size === 0) this.#unconfirmed.delete(client);
      this.quota.settle(packet.topic, this.#access.quotaOwner(client), payloadBytes(packet.payload));
    }
    // Ours replaced or deleted another client's message (e.g. the stale discovery sweep): free its
    // share and delete it from the database, or it would come back on restart.
    if (ours && this.quota.release(packet.topic) === 0) return undefined;
    if (ours) return Buffer.alloc(0);
    return Buffer.from(Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload));
  }
}
