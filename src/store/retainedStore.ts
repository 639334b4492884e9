/**
 * The embedded broker's retained messages in SQLite, so a user's retained
 * station data and our own topics come back after a restart. An empty
 * payload deletes the topic. Saved changes are staged and written in the
 * history's next commit (sharedCommit.ts), one commit for both; when no
 * history drives commits they are written at once in their own transaction.
 */
import type { Database } from './database.js';
import { KeyedStage } from './sharedCommit.js';

export interface RetainedMessage {
  topic: string;
  payload: Buffer;
  qos: 0 | 1 | 2;
}

export class RetainedStore {
  readonly #db: Database;
  /** The latest change per topic not yet committed. */
  readonly #stage: KeyedStage<Database>;

  constructor(db: Database) {
    this.#db = db;
    this.#stage = new KeyedStage(db.sharedCommit);
  }

  /** Topics and payload sizes without the payloads, oldest first (so when limits force a cut the long-standing messages stay). */
  async sizes(): Promise<Array<{ topic: string; bytes: number }>> {
    await this.#writeStaged();
    return this.#db.all<{ topic: string; bytes: number }>(
      'SELECT topic, length(payload) AS bytes FROM retained_messages ORDER BY updated_at_ms, topic',
    );
  }

  /** One stored payload, read alone so a check can look at a few rows without loading all of them. */
  async payload(topic: string): Promise<Buffer | undefined> {
    await this.#writeStaged();
    const row = await this.#db.get<{ payload: Buffer }>('SELECT payload FROM retained_messages WHERE topic = ?', [topic]);
    return row ? Buffer.from(row.payload) : undefined;
  }

  /** Oldest first, like sizes(). */
  async loadAll(): Promise<RetainedMessage[]> {
    await this.#writeStaged();
    const rows = await this.#db.all<{ topic: string; payload: Buffer; qos: number }>(
      'SELECT topic, payload, qos FROM retained_messages ORDER BY updated_at_ms, topic',
    );
    return rows.map((row) => ({
      topic: row.topic,
      payload: Buffer.from(row.payload),
      qos: Math.min(2, Math.max(0, row.qos)) as 0 | 1 | 2,
    }));
  }

  /**
   * Stages the latest change per topic for the shared commit, or writes it
   * at once (one transaction) when no history drives commits. Resolves once
   * the change is staged or written.
   */
  async save(changes: ReadonlyMap<string, RetainedMessage>, nowMs: number): Promise<void> {
    if (changes.size === 0) return;
    await this.#stage.stageAll(
      [...changes.values()].map((message) => [message.topic, (db: Database) => writeChange(db, message, nowMs)] as const),
    );
  }

  /** Reads see every saved change: staged ones are written first (this happens only around a restore at start). */
  #writeStaged(): Promise<void> {
    return this.#stage.settle();
  }
}

async function writeChange(db: Database, message: RetainedMessage, nowMs: number): Promise<void> {
  if (message.payload.length === 0) await db.run('DELETE FROM retained_messages WHERE topic = ?', [message.topic]);
  else {
    await db.run(
      'INSERT INTO retained_messages (topic, payload, qos, updated_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (topic) DO UPDATE SET payload = excluded.payload, qos = excluded.qos, updated_at_ms = excluded.updated_at_ms',
      [message.topic, message.payload, message.qos, nowMs],
    );
  }
}
