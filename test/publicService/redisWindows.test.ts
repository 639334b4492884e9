/**
 * The shared window counter's answers from Redis's replies, and its fallback while Redis is away
 * (the real Redis across two instances: test/e2e/multiInstance.test.ts).
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { WindowCounter } from '../../src/http/windowCounter.js';
import { RedisWindowCounter } from '../../src/publicService/redisWindows.js';

type Replies = Array<[Error | null, unknown]> | null;

function fakeRedis(reply: () => Replies | Promise<Replies>): Pick<Redis, 'multi'> {
  const chain = { set: () => chain, incr: () => chain, pttl: () => chain, exec: async () => reply() };
  return { multi: () => chain } as unknown as Pick<Redis, 'multi'>;
}

describe('RedisWindowCounter', () => {
  const fallback = new WindowCounter(3_600_000);

  it("answers with Redis's count and the window's remaining time", async () => {
    const counter = new RedisWindowCounter({
      redis: fakeRedis(() => [
        [null, 'OK'],
        [null, 3],
        [null, 1_500],
      ]),
      windowMs: 3_600_000,
      prefix: 'p-',
      fallback,
    });
    expect(await counter.hit('a', 0)).toEqual({ count: 3, retryAfterSeconds: 2 });
  });

  it('counts alone while Redis is away or answers nonsense', async () => {
    const away = new RedisWindowCounter({
      redis: fakeRedis(() => Promise.reject(new Error('Connection is closed.'))),
      windowMs: 3_600_000,
      prefix: 'p-',
      fallback,
    });
    expect(await away.hit('b', 0)).toEqual({ count: 1, retryAfterSeconds: 3600 });
    expect(await away.hit('b', 1_000)).toEqual({ count: 2, retryAfterSeconds: 3599 });
    const odd = new RedisWindowCounter({ redis: fakeRedis(() => null), windowMs: 3_600_000, prefix: 'p-', fallback });
    expect((await odd.hit('b', 2_000)).count).toBe(3);
  });

  it('takes the whole window when the key has no expiry (-1)', async () => {
    const counter = new RedisWindowCounter({
      redis: fakeRedis(() => [
        [null, null],
        [null, 1],
        [null, -1],
      ]),
      windowMs: 60_000,
      prefix: 'p-',
      fallback,
    });
    expect(await counter.hit('c', 0)).toEqual({ count: 1, retryAfterSeconds: 60 });
  });
});
