/**
 * The Redis connection behind the shared rate limit (http.rateLimitStore). The
 * limiter fails open (docs/deployment.md): a request whose count Redis cannot
 * give passes. So nothing may wait on Redis for long:
 * - commands fail at once while the connection is away (no offline queue, no
 *   retries per request);
 * - a command not answered within `commandTimeoutMs` fails (a stalled server: a
 *   black-holed network, a frozen process, whose TCP connection stays up);
 * - a connection on which Redis stays silent for STALL_FACTOR × that long is
 *   dropped and reopened with our backoff, so the commands queued on it fail
 *   and later ones fail at once, instead of each waiting for its own timeout.
 * The outage is logged once and shown by /health (degraded) and /metrics;
 * `probe()` (run by health) notices a stall without traffic, and the
 * reconnect's ready check or a probe's answer ends it.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { backoffMs, Outage } from './postgres/outage.js';

/** How many command timeouts of silence drop the connection: a loaded Redis is slow now and then, a stalled one stays silent. */
export const STALL_FACTOR = 4;

export interface RedisConnectionOptions {
  /** http.rateLimitStoreTimeoutMs. */
  commandTimeoutMs: number;
}

/** ioredis's words for "no answer in time" (commandTimeout, socketTimeout): a stalled server, not a refused connection. */
const isTimeout = (err: Error): boolean => /timed out|Socket timeout/i.test(err.message);

export class RedisConnection {
  readonly client: Redis;
  readonly commandTimeoutMs: number;
  readonly #outage: Outage;

  constructor(url: string, logger: Logger, options: RedisConnectionOptions) {
    this.commandTimeoutMs = options.commandTimeoutMs;
    this.#outage = new Outage(logger.child({ module: 'redis' }), 'Redis (http.rateLimitStore)');
    this.client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      socketTimeout: options.commandTimeoutMs * STALL_FACTOR,
      connectTimeout: Math.max(1000, options.commandTimeoutMs * STALL_FACTOR),
      retryStrategy: (attempt) => backoffMs(attempt - 1),
    });
    this.client.on('error', (err: Error) => this.#outage.failed(err, isTimeout(err)));
    this.client.on('ready', () => this.#outage.succeeded());
    // A close after an error keeps that error's words (a stall, say); a close out of the blue is an outage of its own.
    this.client.on('close', () => {
      if (this.#outage.sinceMs === undefined) this.#outage.failed(new Error('connection closed'));
    });
  }

  /** Fails when Redis cannot be reached now (start-up); reconnects on its own afterwards. */
  async connect(): Promise<void> {
    await this.client.connect();
  }

  get unreachableSinceMs(): number | undefined {
    return this.#outage.sinceMs;
  }

  /** True while the outage is a server that is connected but does not answer in time. */
  get stalled(): boolean {
    return this.#outage.stalled;
  }

  /** One PING, bounded by the command timeout: a stall shows even without traffic, and an answer ends an outage. */
  async probe(): Promise<void> {
    try {
      await this.client.ping();
      this.#outage.succeeded();
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      this.#outage.failed(error, isTimeout(error) || this.#outage.stalled);
    }
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
