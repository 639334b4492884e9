/**
 * Two daemons on one PostgreSQL (store.kind postgres) and one Redis
 * (http.rateLimitStore), as docs/deployment.md runs them behind a proxy
 * (http.trustProxy loopback: each test speaks for its own client addresses
 * via X-Forwarded-For). Real servers from the Debian packages, started once
 * for this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon.js';
import { runCliInProcess } from '../helpers/httpCli.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { makeTempDir, waitFor } from '../helpers/httpTempDir.js';
import { PostgresServer, RedisServer, sharedServersMissing } from '../helpers/sharedServers.js';
import { freshAddresses, publicInstanceEnv } from './publicInstanceEnv.js';

const RATE_LIMIT = 12;
const REGISTRATION = {
  name: 'Bob',
  email: 'bob@example.org',
  intended_use: 'Two instances, one key',
  usage: 'private',
  accept_terms: true,
};

/** A client address no other test uses (the rate limit is per address and shared). */
const freshAddress = freshAddresses(9);

describe.skipIf(sharedServersMissing() !== undefined)('two instances on one PostgreSQL and one Redis', () => {
  let pg: PostgresServer;
  let redis: RedisServer;
  let env: (i: number) => Record<string, string>;
  const temps = [makeTempDir(), makeTempDir()];
  const daemons: RunningDaemon[] = [];
  const log = captureLogger('info');

  beforeAll(async () => {
    [pg, redis] = await Promise.all([PostgresServer.start(), RedisServer.start()]);
    const url = await pg.createDatabase('multi');
    env = (i) => ({
      ...publicInstanceEnv(temps[i]!.dbPath, url, redis.url),
      MOWABILITY_RATE_LIMIT_MAX: String(RATE_LIMIT),
      MOWABILITY_KEYS_USAGE_FLUSH_SECONDS: '1',
    });
    for (const i of [0, 1]) daemons.push(await startDaemon({ config: loadConfig({ env: env(i) }), logger: log.logger }));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(daemons.map((daemon) => daemon.stop()));
    await Promise.all([pg?.stop(), redis?.stop()]);
    for (const temp of temps) temp.cleanup();
  });

  const cli = (argv: string[]) => runCliInProcess(argv, env(0));
  /** Calculations answered 200 per key: what the usage counts must add up to. */
  const served = new Map<string, number>();
  const calculate = async (i: number, key: string, address = freshAddress()) => {
    const response = await fetch(`${daemons[i]!.httpAddress}/v1/calculate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: '{"temperature":18,"precipitation_rate":0}',
    });
    if (response.status === 200) served.set(key, (served.get(key) ?? 0) + 1);
    return response;
  };
  const newKey = async (owner: string): Promise<{ id: number; key: string }> => {
    const added = await cli(['keys', 'add', owner, '--json']);
    expect(added.code).toBe(0);
    return JSON.parse(added.stdout) as { id: number; key: string };
  };
  const usageTotal = async (id: number): Promise<number> =>
    (JSON.parse((await cli(['keys', 'usage', String(id), '--json'])).stdout) as { total: number }).total;

  /**
   * When the first request to instance `i` that was answered 200 was sent: the key had reached it by
   * then. Not when the answer came: on a loaded machine a request's own round trip takes hundreds of ms.
   */
  const firstServedAt = async (i: number, key: string): Promise<number> => {
    let sentAt = 0;
    await waitFor(async () => {
      sentAt = Date.now();
      return (await calculate(i, key)).status === 200;
    }, 5000);
    return sentAt;
  };

  it('a key added with the CLI works on both instances within about a second', async () => {
    const { key } = await newKey('both');
    const added = Date.now();
    const reachedAt = await Promise.all([firstServedAt(0, key), firstServedAt(1, key)]);
    for (const at of reachedAt) expect(at - added).toBeLessThan(1500);
    const listed = await cli(['keys', 'list']);
    expect(listed.stdout).toMatch(/both/);
  });

  it('a block applies on both; maintenance too; unblock and off lift them', async () => {
    const { key } = await newKey('blocked');
    const address = '198.51.100.7';
    expect(await cli(['ip', 'block', address, '--note', 'abuse'])).toMatchObject({ code: 0, stdout: 'Blocked 198.51.100.7/32.\n' });
    await waitFor(async () => (await calculate(0, key, address)).status === 403 && (await calculate(1, key, address)).status === 403);
    expect((await cli(['ip', 'list'])).stdout).toContain('abuse');
    expect(await cli(['ip', 'unblock', address])).toMatchObject({ code: 0 });
    expect(await cli(['maintenance', 'on'])).toMatchObject({ code: 0, stdout: 'Maintenance mode is on.\n' });
    await waitFor(async () => (await calculate(0, key)).status === 503 && (await calculate(1, key)).status === 503);
    const status = await cli(['maintenance', 'status', '--json']);
    await cli(['maintenance', 'off']);
    expect(JSON.parse(status.stdout)).toEqual({ maintenance: true });
    await waitFor(async () => (await calculate(0, key, address)).status === 200 && (await calculate(1, key, address)).status === 200);
  });

  it('shares the rate limit: the budget of one address is spent across both instances', async () => {
    const { key } = await newKey('limited');
    await waitFor(async () => (await calculate(0, key)).status === 200 && (await calculate(1, key)).status === 200);
    const address = freshAddress();
    const statuses: number[] = [];
    for (let n = 0; n < RATE_LIMIT; n++) statuses.push((await calculate(n % 2, key, address)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await calculate(0, key, address)).status).toBe(429);
    expect((await calculate(1, key, address)).status).toBe(429);
  });

  it('counts registration attempts of one address across both instances (registration.perAddressPerHour, 5)', async () => {
    const address = freshAddress();
    const attempt = async (i: number) =>
      (
        await fetch(`${daemons[i]!.httpAddress}/v1/registrations`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        })
      ).status;
    // Counted before the body is read: five refused bodies use up the hour, spread over both instances.
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push(await attempt(n % 2));
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    // Per instance, the second one would still have had two attempts left.
    expect(await attempt(1)).toBe(429);
    expect(await attempt(0)).toBe(429);
  });

  it('concurrent claims on both instances hand out the key once', async () => {
    const registered = await fetch(`${daemons[0]!.httpAddress}/v1/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress() },
      body: JSON.stringify(REGISTRATION),
    });
    expect(registered.status).toBe(202);
    const { claim_token: token, id } = ((await registered.json()) as { mfi: { registration: { claim_token: string; id: number } } }).mfi
      .registration;
    expect(await cli(['registrations', 'approve', String(id)])).toMatchObject({ code: 0 });
    const claims = await Promise.all(
      [0, 1, 0, 1, 0, 1].map(async (i) => {
        const response = await fetch(`${daemons[i]!.httpAddress}/v1/registrations/${token}`, {
          headers: { 'x-forwarded-for': freshAddress() },
        });
        return ((await response.json()) as { mfi: { registration: { status: string; api_key?: string } } }).mfi.registration;
      }),
    );
    const keys = claims.filter((claim) => claim.api_key !== undefined);
    expect(keys).toHaveLength(1);
    expect(claims.filter((claim) => claim.status === 'claimed')).toHaveLength(5);
    const again = await cli(['registrations', 'approve', String(id)]);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining(`registration ${id} is claimed, not pending`) });
  });

  it('counts usage on both instances into one total', async () => {
    const { id, key } = await newKey('counted');
    await waitFor(async () => (await calculate(0, key)).status === 200 && (await calculate(1, key)).status === 200);
    const sent = [...Array(7).fill(0), ...Array(5).fill(1)] as number[];
    const statuses = await Promise.all(sent.map((i) => calculate(i, key).then((response) => response.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(served.get(key)).toBeGreaterThanOrEqual(14);
    await waitFor(async () => (await usageTotal(id)) === served.get(key), 8000);
  });

  it('rides out a PostgreSQL restart: at most 503s meanwhile, health stays up, no usage lost', async () => {
    const { id, key } = await newKey('restart');
    await waitFor(async () => (await calculate(0, key)).status === 200 && (await calculate(1, key)).status === 200);
    const statuses: number[] = [];
    let stop = false;
    const traffic = (async () => {
      for (let n = 0; !stop; n++) statuses.push((await calculate(n % 2, key)).status);
    })();
    await waitFor(() => statuses.length >= 10);
    await pg.halt();
    const health = await fetch(`${daemons[0]!.httpAddress}/health`);
    const body = (await health.json()) as { mfi: { checks: Record<string, { status: string; message?: string }> } };
    expect(health.status).toBe(200);
    expect(body.mfi.checks.store).toMatchObject({
      status: 'degraded',
      message: expect.stringContaining('PostgreSQL (store.url) unreachable'),
    });
    const during = statuses.length;
    await waitFor(() => statuses.length >= during + 10);
    await pg.resume();
    await waitFor(
      async () => ((await (await fetch(`${daemons[1]!.httpAddress}/health`)).json()) as typeof body).mfi.checks.store?.status === 'ok',
      15_000,
    );
    stop = true;
    await traffic;
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    await waitFor(async () => (await usageTotal(id)) === served.get(key), 15_000);
    // Logged once per outage and instance, not once per failing query.
    const outageLines = log
      .text()
      .split('\n')
      .filter((line) => line.includes('PostgreSQL (store.url) unreachable')).length;
    expect(outageLines).toBeGreaterThanOrEqual(2);
    expect(outageLines).toBeLessThanOrEqual(4);
  }, 60_000);

  // Last: it stops Redis for good.
  it('lets requests through while Redis is away, and says so in health', async () => {
    const { key } = await newKey('no redis');
    await waitFor(async () => (await calculate(0, key)).status === 200);
    await redis.stop();
    const address = freshAddress();
    const statuses: number[] = [];
    for (let n = 0; n < RATE_LIMIT + 2; n++) statuses.push((await calculate(n % 2, key, address)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // /health answers from a result at most http.healthCacheMs old: the outage shows within that.
    const storeCheck = async () => {
      const health = await fetch(`${daemons[1]!.httpAddress}/health`);
      expect(health.status).toBe(200);
      return ((await health.json()) as { mfi: { checks: Record<string, { status?: string }> } }).mfi.checks.rate_limit_store;
    };
    await waitFor(async () => (await storeCheck())?.status === 'degraded');
    expect(await storeCheck()).toMatchObject({
      status: 'degraded',
      message: expect.stringContaining('Redis (http.rateLimitStore) unreachable'),
    });
  });
});
