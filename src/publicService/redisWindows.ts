/**
 * Fixed-window counts shared by every instance, in Redis (http.rateLimitStore): the registration
 * attempts per client and hour hold across N instances instead of allowing N times as many. One
 * round trip per hit: the window starts with the first hit (`SET … PX window NX`), `INCR` counts,
 * `PTTL` says when it ends; Redis expires it, on Redis's clock (a daemon's clock step changes
 * nothing). While Redis is away the instance counts alone (`fallback`), like the rate limit that
 * fails open (docs/deployment.md).
 */
import type { Redis } from 'ioredis';

export interface WindowHit {
  count: number;
  retryAfterSeconds: number;
}

export interface WindowCounting {
  hit(key: string, nowMs: number): WindowHit | Promise<WindowHit>;
}

export class RedisWindowCounter implements WindowCounting {
  readonly #redis: Pick<Redis, 'multi'>;
  readonly #windowMs: number;
  readonly #prefix: string;
  readonly #fallback: WindowCounting;

  constructor(options: { redis: Pick<Redis, 'multi'>; windowMs: number; prefix: string; fallback: WindowCounting }) {
    this.#redis = options.redis;
    this.#windowMs = options.windowMs;
    this.#prefix = options.prefix;
    this.#fallback = options.fallback;
  }

  async hit(key: string, nowMs: number): Promise<WindowHit> {
    const name = `${this.#prefix}${key}`;
    try {
      const results = await this.#redis.multi().set(name, 0, 'PX', this.#windowMs, 'NX').incr(name).pttl(name).exec();
      const count = results?.[1]?.[1];
      const ttlMs = results?.[2]?.[1];
      if (typeof count !== 'number' || typeof ttlMs !== 'number') throw new Error('unexpected answer from Redis');
      return { count, retryAfterSeconds: Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.#windowMs) / 1000)) };
    } catch {
      // Redis away (the connection's outage is logged once and shown by /health): this instance counts alone.
      return this.#fallback.hit(key, nowMs);
    }
  }
}
