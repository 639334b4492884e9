import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serverOptions } from '../../src/http/server.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { openRawClient, responseStatuses, type RawClient } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

const CAP = 3;
const HEALTH = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';

describe('server options', () => {
  it('caps the headers timeout by the request timeout and checks deadlines at a quarter of the shorter one', () => {
    expect(serverOptions({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 })).toEqual({
      requestTimeout: 30_000,
      headersTimeout: 10_000,
      connectionsCheckingInterval: 2_500,
      requireHostHeader: false,
    });
    expect(serverOptions({ requestTimeoutMs: 600, headersTimeoutMs: 10_000 })).toMatchObject({ headersTimeout: 600, connectionsCheckingInterval: 150 });
    expect(serverOptions({ requestTimeoutMs: 0, headersTimeoutMs: 400_000 })).toEqual({
      headersTimeout: 400_000,
      connectionsCheckingInterval: 30_000,
      requireHostHeader: false,
    });
  });
});

describe('connection cap on a listening server (attack: many idle connections)', () => {
  let h: HttpHarness;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await h.close();
  });

  const listen = async (env: Record<string, string>) => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_MAX_CONNECTIONS: String(CAP), ...env } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    return (h.app.server.address() as AddressInfo).port;
  };
  const open = async (port: number) => {
    const client = await openRawClient(port);
    clients.push(client);
    return client;
  };
  const openConnections = () => new Promise<number>((resolve, reject) => h.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));

  it('refuses connection N+1 while N are open, keeps serving the open ones, and accepts again once some go', async () => {
    const port = await listen({});
    let dropped = 0;
    h.app.server.on('drop', () => dropped++);
    const first = await open(port);
    expect(responseStatuses(await first.request(HEALTH))).toEqual([200]);
    for (let i = 1; i < CAP; i++) await open(port);
    await waitFor(async () => (await openConnections()) === CAP);

    const extra = await open(port);
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(dropped).toBe(1);

    // The connection opened before the cap was reached still gets answers.
    expect(responseStatuses(await first.request(HEALTH, 2))).toEqual([200, 200]);

    for (const idle of clients.slice(1, CAP)) idle.socket.destroy();
    await waitFor(async () => (await openConnections()) < CAP);
    const later = await open(port);
    expect(responseStatuses(await later.request(HEALTH))).toEqual([200]);
  });

  it('closes connections that send nothing after the headers timeout, so the cap frees itself', async () => {
    const port = await listen({ MOWABILITY_HTTP_HEADERS_TIMEOUT_MS: '400' });
    const silent: RawClient[] = [];
    for (let i = 0; i < CAP; i++) silent.push(await open(port));
    await waitFor(async () => (await openConnections()) === CAP);
    const startedAt = Date.now();
    await Promise.all(silent.map((client) => client.closed));
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const later = await open(port);
    expect(responseStatuses(await later.request(HEALTH))).toEqual([200]);
  });

  it('defaults to 256 connections and a 10 s headers timeout', async () => {
    await listen({ MOWABILITY_HTTP_MAX_CONNECTIONS: '256' });
    expect(h.app.server.maxConnections).toBe(256);
    expect(h.app.server.headersTimeout).toBe(10_000);
    const defaults = await startHttpHarness();
    try {
      expect(defaults.config.http.maxConnections).toBe(256);
      expect(defaults.config.http.headersTimeoutMs).toBe(10_000);
      expect(defaults.app.server.maxConnections).toBe(256);
    } finally {
      await defaults.close();
    }
  });
});
