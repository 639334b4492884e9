import { afterEach, describe, expect, it, vi } from 'vitest';
import { addKey, FIXED_NOW_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

const TOO_MANY = { status: 'error', mfi: null, message: 'Too many requests. Retry after the time given in the Retry-After header.' };

/** The rate-limit headers of a response, as @fastify/rate-limit sends them. */
function limitHeaders(response: { headers: Record<string, unknown> }): Record<string, unknown> {
  const { headers } = response;
  return {
    limit: headers['x-ratelimit-limit'],
    remaining: headers['x-ratelimit-remaining'],
    reset: headers['x-ratelimit-reset'],
    retryAfter: headers['retry-after'],
  };
}

describe('rate limit (http.rateLimit)', () => {
  let h: HttpHarness;
  afterEach(async () => {
    vi.useRealTimers();
    await h.close();
  });
  /** @fastify/rate-limit's window reads Date.now(): only Date is faked, so sockets and timers stay real. */
  const setNow = (ms: number) => vi.setSystemTime(ms);

  const start = async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setNow(FIXED_NOW_MS);
    h = await startHttpHarness({
      env: { MOWABILITY_RATE_LIMIT_MAX: '3', MOWABILITY_RATE_LIMIT_TIME_WINDOW_MS: '60000' },
      overrides: { clock: { now: () => Date.now() } },
    });
    return `Bearer ${(await addKey(h)).key}`;
  };

  it('counts per client and window, with the x-ratelimit headers on every answer and Retry-After on the 429', async () => {
    const authorization = await start();
    const send = (remoteAddress = '192.0.2.20') =>
      h.app.inject({ method: 'POST', url: '/v1/calculate', remoteAddress, headers: { authorization }, payload: MINIMAL_INPUT });
    const first = await send();
    expect(first.statusCode).toBe(200);
    expect(limitHeaders(first)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });
    setNow(FIXED_NOW_MS + 20_500);
    expect(limitHeaders(await send())).toEqual({ limit: '3', remaining: '1', reset: '40', retryAfter: undefined });
    expect(limitHeaders(await send())).toEqual({ limit: '3', remaining: '0', reset: '40', retryAfter: undefined });
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(TOO_MANY);
    expect(limitHeaders(refused)).toEqual({ limit: '3', remaining: '0', reset: '40', retryAfter: '40' });
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    // Another client has its own budget; the window ends 60 s after its first request.
    expect((await send('192.0.2.21')).statusCode).toBe(200);
    setNow(FIXED_NOW_MS + 60_000);
    const renewed = await send();
    expect(renewed.statusCode).toBe(200);
    expect(limitHeaders(renewed)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });
  });

  it('counts a HEAD request once, like the GET it mirrors', async () => {
    await start();
    const head = () => h.app.inject({ method: 'HEAD', url: '/openapi.json', remoteAddress: '192.0.2.40' });
    expect(limitHeaders(await head()).remaining).toBe('2');
    expect(limitHeaders(await head()).remaining).toBe('1');
    expect(limitHeaders(await h.app.inject({ method: 'GET', url: '/openapi.json', remoteAddress: '192.0.2.40' })).remaining).toBe('0');
  });

  it('counts unknown paths and refused keys too; health is exempt and carries no rate-limit headers', async () => {
    await start();
    const remoteAddress = '192.0.2.30';
    const unknown = await h.app.inject({ method: 'GET', url: '/nowhere', remoteAddress });
    expect(unknown.statusCode).toBe(404);
    expect(limitHeaders(unknown)).toEqual({ limit: '3', remaining: '2', reset: '60', retryAfter: undefined });
    const wrongKey = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      remoteAddress,
      headers: { authorization: 'Bearer nope' },
      payload: MINIMAL_INPUT,
    });
    expect(wrongKey.statusCode).toBe(401);
    expect(limitHeaders(wrongKey).remaining).toBe('1');
    expect((await h.app.inject({ method: 'GET', url: '/v1/%zz', remoteAddress })).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'GET', url: '/nowhere', remoteAddress })).statusCode).toBe(429);
    for (const url of ['/health', '/v1/health']) {
      const health = await h.app.inject({ method: 'GET', url, remoteAddress });
      expect(health.statusCode).toBe(200);
      expect(limitHeaders(health)).toEqual({ limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined });
    }
  });
});
