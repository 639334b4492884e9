import { createHook } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PARKED_CHECK_INTERVAL_MS, parkDeadlineChecksWhileIdle } from '../../src/http/deadlineChecks.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { openRawClient, responseStatuses, type RawClient } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

/** Node's deadline-check timers as they are started (their delay) and each time one fires. */
function watchDeadlineChecks(): { delays: number[]; fired(): number; stop(): void } {
  const timers = new Set<number>();
  const delays: number[] = [];
  let fired = 0;
  const hook = createHook({
    init(asyncId, type, _trigger, resource) {
      const timer = resource as { _onTimeout?: { name?: string }; _idleTimeout?: number };
      if (type !== 'Timeout' || timer._onTimeout?.name !== 'bound checkConnections') return;
      timers.add(asyncId);
      delays.push(timer._idleTimeout ?? Number.NaN);
    },
    before(asyncId) {
      if (timers.has(asyncId)) fired++;
    },
  }).enable();
  return { delays, fired: () => fired, stop: () => hook.disable() };
}

describe("Node's connection deadline check, parked while no connection is open", () => {
  let h: HttpHarness;
  let port: number;
  let watch: ReturnType<typeof watchDeadlineChecks>;
  const clients: RawClient[] = [];
  const lastDelay = () => watch.delays.at(-1);

  beforeEach(async () => {
    watch = watchDeadlineChecks();
    // Headers deadline 400 ms: checked every 100 ms while a connection is open (src/http/server.ts serverOptions).
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_HEADERS_TIMEOUT_MS: '400' } });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    watch.stop();
    await h.close();
  });

  it('parks the check once listening, runs it every 100 ms while a connection is open, and parks it again after the last one closes', async () => {
    // Node started its check at listen and it was parked right after: no wake-ups while idle.
    expect(watch.delays.length).toBeGreaterThanOrEqual(2);
    expect(lastDelay()).toBe(PARKED_CHECK_INTERVAL_MS);

    const client = await openRawClient(port);
    clients.push(client);
    expect(responseStatuses(await client.request('GET /health HTTP/1.1\r\nHost: test\r\n\r\n'))).toEqual([200]);
    expect(lastDelay()).toBe(100);
    const firedBefore = watch.fired();
    await waitFor(() => watch.fired() >= firedBefore + 2);

    client.socket.destroy();
    await waitFor(() => lastDelay() === PARKED_CHECK_INTERVAL_MS);
  });

  it('still cuts off the first client after an idle spell that sends its headers slowly (slowloris), with 408, once the headers deadline has passed', async () => {
    expect(lastDelay()).toBe(PARKED_CHECK_INTERVAL_MS);
    const client = await openRawClient(port);
    clients.push(client);
    const startedAt = Date.now();
    client.socket.write('GET /health HTTP/1.1\r\nHost: test\r\n');
    // One header line every 50 ms: the socket is never idle, so only the headers deadline can end it.
    const trickle = setInterval(() => client.socket.writable && client.socket.write('X-Slow: a\r\n'), 50);
    try {
      await client.closed;
    } finally {
      clearInterval(trickle);
    }
    const tookMs = Date.now() - startedAt;
    expect(client.received().startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(tookMs).toBeGreaterThanOrEqual(400);
    // Documented: within a checking interval (a quarter of the deadline) after it; generous for a loaded machine.
    expect(tookMs).toBeLessThan(5_000);
    await waitFor(() => lastDelay() === PARKED_CHECK_INTERVAL_MS);
  });

  it('counts connections that overlap: the check stays on until the last one closes', async () => {
    const first = await openRawClient(port);
    const second = await openRawClient(port);
    clients.push(first, second);
    await waitFor(() => lastDelay() === 100);
    const started = watch.delays.length;
    first.socket.destroy();
    await first.closed;
    expect(responseStatuses(await second.request('GET /health HTTP/1.1\r\nHost: test\r\n\r\n'))).toEqual([200]);
    // The second connection kept it running: not parked, not restarted.
    expect(watch.delays.length).toBe(started);
    second.socket.destroy();
    await waitFor(() => lastDelay() === PARKED_CHECK_INTERVAL_MS);
  });
});

describe('parkDeadlineChecksWhileIdle on other servers', () => {
  it('leaves a closed server without a new check timer', async () => {
    const watch = watchDeadlineChecks();
    try {
      const server = createServer({ headersTimeout: 400, connectionsCheckingInterval: 100 }, (_request, response) => response.end('ok'));
      expect(parkDeadlineChecksWhileIdle(server)).toBe(true);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const client = await openRawClient(port);
      expect(responseStatuses(await client.request('GET / HTTP/1.1\r\nHost: test\r\n\r\n'))).toEqual([200]);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const started = watch.delays.length;
      client.socket.destroy();
      await closed;
      expect(watch.delays.length).toBe(started);
    } finally {
      watch.stop();
    }
  });

  it('changes nothing on a server whose Node does not start the check from a listening listener', () => {
    const server = createServer();
    server.removeAllListeners('listening');
    expect(parkDeadlineChecksWhileIdle(server)).toBe(false);
    expect(server.listenerCount('connection')).toBe(1);
  });
});
