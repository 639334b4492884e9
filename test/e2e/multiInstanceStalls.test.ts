/**
 * A stalled shared server: Redis or PostgreSQL frozen with SIGSTOP, what a black-holed network
 * looks like to a client (the TCP connections stay up, nothing answers, the kernel still accepts
 * new connections). docs/deployment.md, "Failures": requests pass without the shared rate limit
 * while Redis is away; registration answers 503 with Retry-After (and calculations too, with
 * keys.quotaMode exact) while PostgreSQL is; /health says so (degraded) and /metrics too. Each
 * answer must come within a bounded time, not when the server comes back. Real servers from the
 * Debian packages; every stop is followed by SIGCONT in a finally, whatever the test did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { PostgresServer, RedisServer, sharedServersMissing } from '../helpers/sharedServers.js';
import { freshAddresses, publicInstanceEnv } from './publicInstanceEnv.js';

/**
 * What "bounded" means here: far above the daemon's timeouts (250 ms for Redis; 1 s per statement and
 * per connection for PostgreSQL, set below), far below "when the server is back" (the servers stay stopped
 * until the test has its answer, or this bound passed: then the request is cut and the test fails).
 */
const ANSWER_BOUND_MS = 12_000;
const REGISTRATION = {
  name: 'Bob',
  email: 'bob@example.org',
  intended_use: 'Stalled servers, bounded answers',
  usage: 'private',
  accept_terms: true,
};

interface Check {
  status: string;
  message?: string;
}
interface HealthBody {
  mfi: { checks: Record<string, Check> };
}

const freshAddress = freshAddresses(8);

/** Freezes processes until `work` is done, and always thaws them. */
async function whileStopped<T>(pids: readonly number[], work: () => Promise<T>): Promise<T> {
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  try {
    return await work();
  } finally {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone already (a backend that ended): nothing to thaw.
      }
    }
  }
}

describe.skipIf(sharedServersMissing() !== undefined)('stalled shared servers (SIGSTOP)', () => {
  let pg: PostgresServer;
  let redis: RedisServer;
  let env: (i: number) => Record<string, string>;
  const temps = [makeTempDir(), makeTempDir()];
  /** [0]: keys.quotaMode shared (default); [1]: exact. */
  const daemons: RunningDaemon[] = [];
  const log = captureLogger('info');
  const keys: string[] = [];

  beforeAll(async () => {
    [pg, redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
    const url = await pg.createDatabase('stalls');
    env = (i) => ({
      ...publicInstanceEnv(temps[i]!.dbPath, url, redis.url),
      MOWABILITY_STORE_QUERY_TIMEOUT_MS: '1000',
      MOWABILITY_STORE_CONNECT_TIMEOUT_MS: '1000',
      MOWABILITY_KEYS_QUOTA_MODE: i === 1 ? 'exact' : 'shared',
    });
    for (const i of [0, 1]) daemons.push(await startDaemon({ config: loadConfig({ env: env(i) }), logger: log.logger }));
    const added = await runCliInProcess(['keys', 'add', 'stalls', '--json'], env(0));
    expect(added.code).toBe(0);
    keys.push((JSON.parse(added.stdout) as { key: string }).key);
    await waitFor(async () => (await calculate(0)).status === 200 && (await calculate(1)).status === 200, 10_000);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(daemons.map((daemon) => daemon.stop()));
    await Promise.all([pg?.stop(), redis?.stop()]);
    for (const temp of temps) temp.cleanup();
  });

  const request = (i: number, path: string, init: RequestInit = {}) =>
    fetch(`${daemons[i]!.httpAddress}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
  const calculate = (i: number) =>
    request(i, '/v1/calculate', {
      method: 'POST',
      headers: { authorization: `Bearer ${keys[0]!}`, 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
      body: '{"temperature":18,"precipitation_rate":0}',
    });
  const health = async (i: number): Promise<{ code: number; checks: Record<string, Check> }> => {
    const response = await request(i, '/health');
    return { code: response.status, checks: ((await response.json()) as HealthBody).mfi.checks };
  };
  const sharedStoreUp = async (i: number, check: string): Promise<string | undefined> => {
    const text = await (await request(i, '/metrics')).text();
    return new RegExp(`^mowability_shared_store_up\\{check="${check}"\\} (\\d)$`, 'm').exec(text)?.[1];
  };

  it('Redis stopped: calculations pass within the command timeout, without the shared limit; health and metrics say degraded; it recovers on its own', async () => {
    expect((await health(0)).checks.rate_limit_store?.status).toBe('ok');
    await whileStopped([redis.pid], async () => {
      // Without a command timeout each of these waits until Redis is back (here: until the bound cuts it).
      for (let n = 0; n < 6; n++) expect((await calculate(n % 2)).status).toBe(200);
      // Registration attempts (registration.perAddressPerHour) count in this instance alone meanwhile.
      const registration = await request(0, '/v1/registrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
        body: JSON.stringify(REGISTRATION),
      });
      expect(registration.status).toBe(202);
      await waitFor(async () => (await health(0)).checks.rate_limit_store?.status === 'degraded', ANSWER_BOUND_MS);
      const during = await health(0);
      expect(during.code).toBe(200);
      expect(during.checks.rate_limit_store?.message).toMatch(
        /^Redis \(http\.rateLimitStore\) not answering within 250 ms for \d+ s; requests pass without the shared rate limit; tolerated for 120 s/,
      );
      expect(await sharedStoreUp(0, 'rate_limit_store')).toBe('0');
      expect(await sharedStoreUp(0, 'store')).toBe('1');
    });
    // Back: the reconnect (backoff up to 10 s) or health's PING ends the outage, without a restart.
    await waitFor(async () => (await health(0)).checks.rate_limit_store?.status === 'ok', 30_000);
    expect(await sharedStoreUp(0, 'rate_limit_store')).toBe('1');
    expect(log.text()).toContain('Redis (http.rateLimitStore) reachable again');
  }, 90_000);

  it('PostgreSQL stopped with warm connections: registration and exact-mode calculations answer 503 with Retry-After; health answers, degraded', async () => {
    // Warm the pools: every daemon has served queries on its connections.
    expect((await calculate(1)).status).toBe(200);
    expect((await health(0)).checks.store?.status).toBe('ok');
    await whileStopped(pg.pids(), async () => {
      const registration = await request(0, '/v1/registrations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
        body: JSON.stringify(REGISTRATION),
      });
      expect([registration.status, registration.headers.get('retry-after')]).toEqual([503, '5']);
      const exact = await calculate(1);
      expect([exact.status, exact.headers.get('retry-after')]).toEqual([503, '5']);
      // Keys served from memory: the shared mode still calculates.
      expect((await calculate(0)).status).toBe(200);
      const during = await health(0);
      expect(during.code).toBe(200);
      expect(during.checks.store).toMatchObject({
        status: 'degraded',
        message: expect.stringMatching(/^PostgreSQL \(store\.url\) not answering within 1000 ms for \d+ s; keys are served from memory/),
      });
      expect((await health(1)).checks.store?.message).toContain('registration and calculation (keys.quotaMode exact) answer 503');
      expect(await sharedStoreUp(0, 'store')).toBe('0');
    });
    await waitFor(async () => (await health(0)).checks.store?.status === 'ok' && (await health(1)).checks.store?.status === 'ok', 30_000);
    expect((await calculate(1)).status).toBe(200);
  }, 90_000);
});
