/**
 * Keeps the embedded broker's retained messages of other clients across
 * restarts: writes them to SQLite in batches, and before the broker listens
 * drops what must not come back and restores the rest.
 */
import type { Aedes } from 'aedes';
import type { Logger } from 'pino';
import type { RetainedMessage, RetainedStore } from '../store/retainedStore.js';
import type { Clock } from '../util/clock.js';
import { BatchWriter } from '../util/batchWriter.js';
import type { BrokerAccess } from './brokerAccess.js';
import { RESTORED_OWNER, type RetainedQuota } from './retainedQuota.js';

export interface RetainedPersistenceOptions {
  store: RetainedStore;
  access: BrokerAccess;
  quota: RetainedQuota;
  maxPayloadBytes: number;
  flushIntervalMs: number;
  clock: Clock;
  log: Logger;
}

export class RetainedPersistence {
  readonly #options: RetainedPersistenceOptions;
  readonly #pending = new Map<string, RetainedMessage>();
  readonly #writer: BatchWriter;
  #restoring = false;

  constructor(options: RetainedPersistenceOptions) {
    this.#options = options;
    this.#writer = new BatchWriter(() => this.#persist(), options.flushIntervalMs, options.log);
  }

  /** True while restored messages are being published (they are in the database already). */
  get restoring(): boolean {
    return this.#restoring;
  }

  /** Queues a stored (or, with an empty payload, deleted) retained message for the next batch. */
  record(topic: string, payload: Buffer, qos: RetainedMessage['qos']): void {
    this.#pending.set(topic, { topic, payload, qos });
    this.#writer.markDirty();
  }

  async restore(broker: Aedes): Promise<void> {
    await this.#dropUnrestorable();
    const messages = await this.#options.store.loadAll();
    this.#restoring = true;
    try {
      for (const message of messages) {
        await new Promise<void>((resolve) => {
          broker.publish(
            { cmd: 'publish', topic: message.topic, payload: message.payload, qos: message.qos, retain: true, dup: false },
            (err) => {
              if (err) this.#options.log.warn({ err, topic: message.topic }, 'could not restore a retained message');
              resolve();
            },
          );
        });
      }
    } finally {
      this.#restoring = false;
    }
    if (messages.length > 0) this.#options.log.info({ count: messages.length }, 'retained messages restored');
  }

  /** Writes what is pending. */
  async stop(): Promise<void> {
    await this.#writer.stop();
  }

  /**
   * Before any payload is loaded (an attacked database must not be read into memory whole), deletes
   * the stored messages that must not come back: those on our topics or with bad topic text (stored
   * by a version that let other clients publish there), then, oldest kept first, those beyond the
   * retained limits (a database filled before the limits existed, or limits lowered since).
   */
  async #dropUnrestorable(): Promise<void> {
    const { store, quota, log } = this.#options;
    const stored = await store.sizes();
    const forbidden = new Set<string>();
    const overQuota = new Set<string>();
    for (const { topic, bytes } of stored) {
      const problem = await this.#restoreProblem(topic, bytes);
      if (problem) {
        forbidden.add(topic);
        log.warn({ topic: JSON.stringify(topic.slice(0, 200)), problem }, 'stored retained message dropped');
      } else if (quota.admit(topic, RESTORED_OWNER, bytes) !== undefined) overQuota.add(topic);
    }
    if (forbidden.size + overQuota.size === 0) return;
    const deletes = new Map([...forbidden, ...overQuota].map((topic) => [topic, { topic, payload: Buffer.alloc(0), qos: 0 as const }]));
    await store.save(deletes, this.#options.clock.now());
    if (overQuota.size > 0) {
      log.warn(
        { kept: stored.length - forbidden.size - overQuota.size, dropped: overQuota.size, messages: quota.messages, bytes: quota.bytes },
        'stored retained messages exceed broker.maxRetainedMessages / broker.maxRetainedBytes; the newest ones were deleted',
      );
    }
  }

  /**
   * Reads a payload only under the discovery prefix, one row at a time and within the payload
   * limit, so an attacked database is never loaded whole; a bigger "config" there is dropped.
   */
  async #restoreProblem(topic: string, bytes: number): Promise<string | undefined> {
    const { access, maxPayloadBytes, store } = this.#options;
    if (!access.isDiscoveryTopic(topic)) return access.restoreProblem(topic);
    if (bytes > maxPayloadBytes) return `a discovery config over broker.maxPayloadBytes (${maxPayloadBytes})`;
    return access.restoreProblem(topic, (await store.payload(topic)) ?? '');
  }

  async #persist(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = new Map(this.#pending);
    this.#pending.clear();
    try {
      await this.#options.store.save(batch, this.#options.clock.now());
    } catch (err) {
      for (const [topic, message] of batch) if (!this.#pending.has(topic)) this.#pending.set(topic, message);
      throw err;
    }
  }
}
