/**
 * /health answers from one run of its checks per http.healthCacheMs, each check bounded by
 * http.healthCheckTimeoutMs, and has its own rate limit per client address. The attack these
 * guard against: thousands of health requests (one connection pipelining them, or many monitors)
 * each ran a database query; a stalled database held every health request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { boundedCheck, HealthCache } from '../../src/http/healthCache.js';
import { setMaintenance, startHttpHarness, type HarnessOptions, type HttpHarness } from '../helpers/httpApp.js';

describe('health cache on the real app and SQLite', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => h?.close());

  let monotonicMs = 0;
  const start = async (options: HarnessOptions = {}) => {
    monotonicMs = 0;
    h = await startHttpHarness({
      ...options,
      env: { MOWABILITY_HTTP_HEALTH_CACHE_MS: '1000', ...options.env },
      overrides: { healthClock: { now: () => monotonicMs }, ...options.overrides },
    });
    // Count the database queries health makes (the real query still runs).
    const probe = h.store.healthProbe.bind(h.store);
    const counted = { queries: 0 };
    h.store.healthProbe = async () => {
      counted.queries++;
      return probe();
    };
    return counted;
  };
  const health = async (remoteAddress = '127.0.0.1') => h!.app.inject({ method: 'GET', url: '/health', remoteAddress });

  it('N requests within one refresh interval make one database query; the next interval makes one more', async () => {
    const counted = await start({ env: { MOWABILITY_HTTP_HEALTH_RATE_LIMIT_MAX: '0' } });
    const concurrent = await Promise.all(Array.from({ length: 100 }, async () => health()));
    expect(concurrent.every((response) => response.statusCode === 200)).toBe(true);
    for (let i = 0; i < 100; i++) expect((await health()).statusCode).toBe(200);
    expect(counted.queries).toBe(1);

    await h!.store.setSetting('mfi_version', '9.9.9-test');
    expect((await health()).json().mfi.mfi_version).not.toBe('9.9.9-test');
    monotonicMs += h!.config.http.healthCacheMs;
    expect((await health()).json().mfi.mfi_version).toBe('9.9.9-test');
    for (let i = 0; i < 50; i++) await health();
    expect(counted.queries).toBe(2);
  });

  it('a switch of maintenance mode shows at once, without waiting for the interval', async () => {
    await start();
    expect((await health()).statusCode).toBe(200);
    await setMaintenance(h!, true);
    const response = await health();
    expect(response.statusCode).toBe(503);
    expect(response.json().mfi.maintenance_mode).toBe(true);
  });

  it('a database that stops answering shows as a failed check within the bound, and is not asked again while its query hangs', async () => {
    const counted = await start({ env: { MOWABILITY_HTTP_HEALTH_CHECK_TIMEOUT_MS: '200' } });
    h!.store.healthProbe = async () => {
      counted.queries++;
      return new Promise(() => undefined);
    };
    const first = await health();
    expect(first.statusCode).toBe(503);
    expect(first.json().mfi.checks.database).toEqual({ status: 'error', message: 'the database did not answer within 200 ms' });
    monotonicMs += h!.config.http.healthCacheMs;
    expect((await health()).statusCode).toBe(503);
    expect(counted.queries).toBe(1);
  });

  it('has its own limit per client address: past it 429 with Retry-After; another address is still answered', async () => {
    await start({ env: { MOWABILITY_HTTP_HEALTH_RATE_LIMIT_MAX: '5', MOWABILITY_RATE_LIMIT_MAX: '1000' } });
    for (let i = 0; i < 5; i++) expect((await health('192.0.2.7')).statusCode).toBe(200);
    const limited = await health('192.0.2.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toMatchObject({ status: 'error', mfi: null });
    expect((await health('192.0.2.8')).statusCode).toBe(200);
    // This machine's own monitoring is not limited.
    for (let i = 0; i < 10; i++) expect((await health('127.0.0.1')).statusCode).toBe(200);
    expect((await health('::ffff:127.0.0.1')).statusCode).toBe(200);
    // One IPv6 /64 is one client, as for the API's limit.
    for (let i = 0; i < 5; i++) await health(`2001:db8:1:2::${i + 1}`);
    expect((await health('2001:db8:1:2::99')).statusCode).toBe(429);
    // The window ends: answered again.
    monotonicMs += h!.config.http.healthRateLimit.timeWindowMs;
    expect((await health('192.0.2.7')).statusCode).toBe(200);
  });
});

describe('boundedCheck and HealthCache', () => {
  it('boundedCheck answers late() after the bound and shares the pending run', async () => {
    let runs = 0;
    let release: (value: string) => void = () => undefined;
    const check = boundedCheck(
      async () => {
        runs++;
        return new Promise<string>((resolve) => (release = resolve));
      },
      20,
      (waitedMs) => `late ${waitedMs >= 0}`,
      () => performance.now(),
    );
    expect(await check()).toBe('late true');
    expect(await check()).toBe('late true');
    expect(runs).toBe(1);
    const third = check();
    release('answered');
    expect(await third).toBe('answered');
    await check().catch(() => undefined);
    expect(runs).toBe(2);
  });

  it('HealthCache refreshes when outdated or older than maxAgeMs, never twice at once', async () => {
    let nowMs = 0;
    let outdated = false;
    let value = 0;
    const cache = new HealthCache({ refresh: async () => ++value, maxAgeMs: 100, now: () => nowMs, isOutdated: () => outdated });
    expect(await Promise.all([cache.current(), cache.current()])).toEqual([1, 1]);
    nowMs = 99;
    expect(await cache.current()).toBe(1);
    nowMs = 100;
    expect(await cache.current()).toBe(2);
    outdated = true;
    expect(await cache.current()).toBe(3);
    expect(cache.refreshes).toBe(3);
  });
});
