/**
 * Who holds the HTTP connection cap, on a listening server with real sockets. Clients are told
 * apart by their loopback source address (127.0.0.x binds locally on Linux, no network setup).
 * The attacks: one address opening far more idle sockets than the cap (its own probes were refused
 * at its share); nine addresses × their share of idle keep-alive sockets filling the cap (a tenth
 * address got no answer for as long as they stayed).
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionCounters, type ConnectionCounters } from '../../src/http/connectionCounters.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { startHttpHarness, type HarnessOptions, type HttpHarness } from '../helpers/httpApp.js';
import { openRawClient, responseStatuses, type RawClient } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

const HEALTH = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';
const CAP = 40;
const SHARE = 8;
const FLOOD = 3 * CAP;

describe('the HTTP connection cap: shares, reserve, idle connections giving way', () => {
  let h: HttpHarness;
  let counters: ConnectionCounters;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await h.close();
  });

  const listen = async (env: Record<string, string>, logger?: HarnessOptions['logger']) => {
    counters = createConnectionCounters();
    h = await startHttpHarness({
      overrides: { connectionCounters: counters },
      env: {
        MOWABILITY_HTTP_MAX_CONNECTIONS: String(CAP),
        MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(SHARE),
        MOWABILITY_HTTP_CONNECTION_RESERVE: '0',
        MOWABILITY_HTTP_HEALTH_RATE_LIMIT_MAX: '0',
        ...env,
      },
      ...(logger ? { logger } : {}),
    });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    return (h.app.server.address() as AddressInfo).port;
  };
  const open = async (port: number, from: string) => {
    const client = await openRawClient(port, '127.0.0.1', from);
    clients.push(client);
    return client;
  };
  const openMany = async (port: number, from: string, count: number) => {
    const sockets: RawClient[] = [];
    for (let i = 0; i < count; i++) sockets.push(await open(port, from));
    return sockets;
  };
  const openConnections = () =>
    new Promise<number>((resolve, reject) => h.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));
  const probe = async (port: number, from: string) => responseStatuses(await (await open(port, from)).request(HEALTH));

  it('one address opening three times the cap in idle sockets keeps only its share, the newest; another address still gets /health', async () => {
    const log = captureLogger('info');
    const port = await listen({}, log.logger);
    const sockets = await openMany(port, '127.0.0.2', FLOOD);
    const closed = () => sockets.filter((socket) => socket.isClosed()).length;
    await waitFor(() => closed() === FLOOD - SHARE);
    // Each new connection over the share closed the address's oldest idle one.
    expect(sockets.slice(-SHARE).every((socket) => !socket.isClosed())).toBe(true);
    expect(await probe(port, '127.0.0.3')).toEqual([200]);
    expect(responseStatuses(await sockets.at(-1)!.request(HEALTH))).toEqual([200]);
    // One warning for the address, not one per closed connection.
    const warnings = log.lines().filter((line) => String(line.msg).startsWith('HTTP connection closed'));
    expect(warnings).toEqual([expect.objectContaining({ clientAddress: '127.0.0.2', limit: SHARE })]);
    expect(counters.evicted.share).toBe(FLOOD - SHARE);
  });

  it('regression: an address at its share whose connections sit idle still gets its own new connection served', async () => {
    const port = await listen({});
    // The round-2 attack, from the probing address itself: it keeps reopening idle sockets.
    await openMany(port, '127.0.0.2', 3 * SHARE);
    for (let i = 0; i < 5; i++) expect(await probe(port, '127.0.0.2')).toEqual([200]);
  });

  it('never closes a busy connection: at its share with every connection carrying a request, a new one is refused; freed slots come back', async () => {
    const port = await listen({ MOWABILITY_HTTP_HEALTH_CHECK_TIMEOUT_MS: '60000' });
    // A database that takes its time: each /health stays in flight, so its connection is busy.
    let answer: () => void = () => undefined;
    const probeDatabase = h.store.healthProbe.bind(h.store);
    const slow = new Promise<void>((resolve) => (answer = resolve));
    h.store.healthProbe = async () => slow.then(probeDatabase);
    let parsed = 0;
    h.app.server.on('request', () => parsed++);
    const busy = await openMany(port, '127.0.0.2', SHARE);
    for (const client of busy) client.socket.write(HEALTH);
    // Once the server has parsed a request's headers, its connection counts as busy.
    await waitFor(() => parsed === SHARE);
    const over = await open(port, '127.0.0.2');
    await over.closed;
    expect(over.received()).toBe('');
    expect(counters.refused.share).toBe(1);
    expect(busy.every((client) => !client.isClosed())).toBe(true);
    answer();
    for (const client of busy) expect(responseStatuses(await client.request(''))).toEqual([200]);
    busy[0]!.socket.destroy();
    await waitFor(async () => (await openConnections()) === SHARE - 1);
    expect(await probe(port, '127.0.0.2')).toEqual([200]);
  });

  it('regression: nine addresses holding their share in idle keep-alive sockets fill the cap; a tenth address is still served', async () => {
    const port = await listen({ MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(Math.ceil(CAP / 8)) });
    const perAddress = Math.ceil(CAP / 8);
    let flooders = 0;
    for (let address = 2; address <= 10; address++) {
      for (let i = 0; i < perAddress; i++) {
        // Keep-alive: one request, then idle. Once the cap is full, an address swaps its own idle ones.
        await (await open(port, `127.0.0.${address}`)).request(HEALTH);
        flooders++;
      }
    }
    expect(flooders).toBeGreaterThan(CAP);
    for (let i = 0; i < 10; i++) expect(await probe(port, '127.0.0.11')).toEqual([200]);
    expect(await openConnections()).toBeLessThanOrEqual(CAP);
    expect(counters.evicted.cap).toBeGreaterThan(0);
    expect(counters.refused.cap).toBe(0);
  });

  it('keeps http.connectionReserve for clients that hold none: once only the reserve is free, a client holding connections swaps its own idle ones', async () => {
    const reserve = 8;
    const port = await listen({
      MOWABILITY_HTTP_CONNECTION_RESERVE: String(reserve),
      MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
    });
    const hog = await openMany(port, '127.0.0.2', CAP);
    await waitFor(() => hog.filter((client) => client.isClosed()).length === reserve);
    expect(await openConnections()).toBe(CAP - reserve);
    // The reserve is there for another address, at once and without closing anyone.
    const newcomers = await openMany(port, '127.0.0.3', 1);
    expect(responseStatuses(await newcomers[0]!.request(HEALTH))).toEqual([200]);
    expect(hog.filter((client) => client.isClosed())).toHaveLength(reserve);
  });

  it('does not limit a trusted proxy, which carries many clients, nor anyone with the share off', async () => {
    let port = await listen({ MOWABILITY_TRUST_PROXY: 'loopback' });
    await openMany(port, '127.0.0.2', 2 * SHARE);
    await waitFor(async () => (await openConnections()) === 2 * SHARE);
    expect(clients.every((client) => !client.isClosed())).toBe(true);
    for (const client of clients.splice(0)) client.socket.destroy();
    await h.close();

    port = await listen({ MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' });
    await openMany(port, '127.0.0.2', 2 * SHARE);
    await waitFor(async () => (await openConnections()) === 2 * SHARE);
    expect(clients.every((client) => !client.isClosed())).toBe(true);
  });
});
