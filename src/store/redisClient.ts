/**
 * The Redis connection behind the shared rate limit (http.rateLimitStore):
 * ioredis reconnects on its own with our backoff; commands fail at once
 * while it is away (no offline queue), so the rate limiter lets requests
 * through instead of queueing them (fail open; docs/deployment.md). The
 * outage is logged once and shown by /health.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { backoffMs, Outage } from './postgres/outage.js';

export class RedisConnection {
  readonly client: Redis;
  readonly #outage: Outage;

  constructor(url: string, logger: Logger) {
    this.#outage = new Outage(logger.child({ module: 'redis' }), 'Redis (http.rateLimitStore)');
    this.client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 5000,
      retryStrategy: (attempt) => backoffMs(attempt - 1),
    });
    this.client.on('error', (err: Error) => this.#outage.failed(err));
    this.client.on('ready', () => this.#outage.succeeded());
    this.client.on('close', () => this.#outage.failed(new Error('connection closed')));
  }

  /** Fails when Redis cannot be reached now (start-up); reconnects on its own afterwards. */
  async connect(): Promise<void> {
    await this.client.connect();
  }

  get unreachableSinceMs(): number | undefined {
    return this.#outage.sinceMs;
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
