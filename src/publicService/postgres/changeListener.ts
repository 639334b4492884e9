/**
 * One dedicated PostgreSQL connection that LISTENs for key, block and
 * settings changes (./migrations.ts) and tells the access cache. After a lost
 * connection it reconnects with backoff and counts the reconnect as a change
 * (notifications sent while it was away are lost), and every `rereadMs` it
 * counts one anyway: the periodic re-read is the safety net.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { backoffMs, Outage } from './outage.js';
import { CHANGE_CHANNEL } from './migrations.js';

export interface ChangeListenerOptions {
  connectionString: string;
  logger: Logger;
  rereadMs: number;
  /** store.connectTimeoutMs: a reconnect to a server that does not answer gives up and tries again with backoff. */
  connectTimeoutMs?: number;
  /** Shared with the pool: one log line per outage, whichever notices first. */
  outage: Outage;
}

export class ChangeListener {
  readonly #options: ChangeListenerOptions;
  readonly #listeners = new Set<() => void>();
  #client: pg.Client | undefined;
  #version = 0;
  #attempt = 0;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  #reread: NodeJS.Timeout | undefined;

  constructor(options: ChangeListenerOptions) {
    this.#options = options;
  }

  /** Bumped by every notification, reconnect and periodic re-read. */
  get version(): number {
    return this.#version;
  }

  get listening(): boolean {
    return this.#client !== undefined;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Connects once (failing start-up when PostgreSQL is unreachable), then keeps reconnecting on its own. */
  async start(): Promise<void> {
    await this.#connect();
    this.#reread = setInterval(() => this.#changed(), this.#options.rereadMs);
    this.#reread.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    clearInterval(this.#reread);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: this.#options.connectTimeoutMs ?? 3000,
    });
    client.on('notification', () => this.#changed());
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, new Error('connection closed')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.#stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
    this.#options.outage.succeeded();
  }

  #lost(client: pg.Client, err: Error): void {
    if (this.#client !== client || this.#stopped) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#options.outage.failed(err);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#retry = setTimeout(() => {
      this.#connect().then(
        // Whatever changed while we were away: read it all again.
        () => this.#changed(),
        (err: unknown) => {
          this.#options.outage.failed(err);
          this.#attempt++;
          this.#scheduleReconnect();
        },
      );
    }, backoffMs(this.#attempt));
    this.#retry.unref();
  }

  #changed(): void {
    this.#version++;
    for (const listener of this.#listeners) listener();
  }
}
