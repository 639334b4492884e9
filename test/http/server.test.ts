import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp } from '../../src/http/listen.js';
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
    expect(serverOptions({ requestTimeoutMs: 600, headersTimeoutMs: 10_000 })).toMatchObject({
      headersTimeout: 600,
      connectionsCheckingInterval: 150,
    });
    expect(serverOptions({ requestTimeoutMs: 0, headersTimeoutMs: 400_000 })).toEqual({
      headersTimeout: 400_000,
      connectionsCheckingInterval: 30_000,
      requireHostHeader: false,
    });
  });
});

describe('the server under fastify', () => {
  it('app.close() closes the server listenHttp bound, idle keep-alive connections included', async () => {
    const h = await startHttpHarness();
    const { port } = await listenHttp(h.app, { host: '127.0.0.1', port: 0 });
    const client = await openRawClient(port);
    expect(responseStatuses(await client.request(HEALTH))).toEqual([200]);
    await h.close();
    expect(h.app.server.listening).toBe(false);
    await client.closed;
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
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_MAX_CONNECTIONS: String(CAP), MOWABILITY_HTTP_CONNECTION_RESERVE: '0', ...env } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    return (h.app.server.address() as AddressInfo).port;
  };
  const open = async (port: number) => {
    const client = await openRawClient(port);
    clients.push(client);
    return client;
  };
  const openConnections = () =>
    new Promise<number>((resolve, reject) => h.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));

  it('at the cap a new connection closes the oldest idle one; the others keep being served', async () => {
    const port = await listen({});
    const first = await open(port);
    expect(responseStatuses(await first.request(HEALTH))).toEqual([200]);
    const rest: RawClient[] = [];
    for (let i = 1; i < CAP; i++) rest.push(await open(port));
    await waitFor(async () => (await openConnections()) === CAP);

    // The oldest idle one: `first` has been idle since its answer, before the others were opened.
    const extra = await open(port);
    await first.closed;
    expect(responseStatuses(await extra.request(HEALTH))).toEqual([200]);
    for (const client of rest) expect(responseStatuses(await client.request(HEALTH))).toEqual([200]);
    expect(await openConnections()).toBe(CAP);
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

  it("defaults to 256 connections (Node's own cap a backstop at twice that), a reserve of 32 and a 10 s headers timeout", async () => {
    await listen({ MOWABILITY_HTTP_MAX_CONNECTIONS: '256' });
    expect(h.app.server.maxConnections).toBe(512);
    expect(h.app.server.headersTimeout).toBe(10_000);
    const defaults = await startHttpHarness();
    try {
      expect(defaults.config.http.maxConnections).toBe(256);
      expect(defaults.config.http.headersTimeoutMs).toBe(10_000);
      expect(defaults.config.http.connectionReserve).toBe(32);
      expect(defaults.config.http.ipv6SharePrefix).toBe(64);
      expect(defaults.app.server.maxConnections).toBe(512);
    } finally {
      await defaults.close();
    }
  });
});
