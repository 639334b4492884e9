/**
 * The bound on requests one connection has waiting for answers, on a listening server with real
 * sockets. The attack: one connection writes 25,000 `GET /health` in one write and never reads;
 * every request ran at once and its answer was held (RSS 120 → 530 MB, other clients' /health
 * waited 7–16 s).
 */
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionCounters, type ConnectionCounters } from '../../src/http/connectionCounters.js';
import { HARD_FACTOR } from '../../src/http/pipelineBound.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { openRawClient, responseStatuses, type RawClient } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

const HEALTH = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';
const LIMIT = 16;

describe('pipelined requests per connection', () => {
  let h: HttpHarness;
  let counters: ConnectionCounters;
  const sockets: Array<Socket | RawClient> = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) ('socket' in socket ? socket.socket : socket).destroy();
    await h.close();
  });

  const listen = async (env: Record<string, string> = {}) => {
    counters = createConnectionCounters();
    h = await startHttpHarness({
      env: { MOWABILITY_HTTP_MAX_PIPELINED_REQUESTS: String(LIMIT), MOWABILITY_HTTP_HEALTH_RATE_LIMIT_MAX: '0', ...env },
      overrides: { connectionCounters: counters },
    });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    return (h.app.server.address() as AddressInfo).port;
  };
  /** Answers the server finished writing, per client port. */
  const answeredBy = () => {
    const answered = new Map<number, number>();
    h.app.server.on('request', (request, response) => {
      response.on('finish', () => answered.set(request.socket.remotePort!, (answered.get(request.socket.remotePort!) ?? 0) + 1));
    });
    return answered;
  };
  const raw = async (port: number, from?: string) => {
    const client = await openRawClient(port, '127.0.0.1', from);
    sockets.push(client);
    return client;
  };

  it('regression: 25,000 pipelined /health in one write, never read, run a bounded number of handlers; another client is answered meanwhile', async () => {
    const port = await listen();
    const answered = answeredBy();
    const flood = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    sockets.push(flood);
    flood.on('error', () => undefined);
    await new Promise<void>((resolve) => flood.once('connect', () => resolve()));
    // Never read: whatever the server answers stays in the kernel's buffers.
    flood.pause();
    flood.write(HEALTH.repeat(25_000));
    await waitFor(() => counters.dropped === 1);

    const probe = await raw(port, '127.0.0.3');
    expect(responseStatuses(await probe.request(HEALTH))).toEqual([200]);
    // At most `limit` ran at once and HARD_FACTOR × limit waited before the connection was closed.
    expect(answered.get(flood.localPort!) ?? 0).toBeLessThanOrEqual(LIMIT * (1 + HARD_FACTOR));
    expect(counters.paused).toBe(1);
  });

  it('answers a moderate pipeline in order: the connection pauses past the limit and resumes', async () => {
    const port = await listen();
    const client = await raw(port);
    const count = 3 * LIMIT;
    const statuses = responseStatuses(
      await client.request(HEALTH.repeat(count - 1) + 'GET /nothing-here HTTP/1.1\r\nHost: test\r\n\r\n', count),
    );
    expect(statuses).toEqual([...Array<number>(count - 1).fill(200), 404]);
    expect(counters).toMatchObject({ paused: 1, dropped: 0 });
  });

  it('does not read a paused connection: requests sent while the first ones wait are parsed only once answers go out', async () => {
    const port = await listen({ MOWABILITY_HTTP_HEALTH_CHECK_TIMEOUT_MS: '60000' });
    // A slow database keeps the first requests in flight.
    let answer: () => void = () => undefined;
    const probeDatabase = h.store.healthProbe.bind(h.store);
    const slow = new Promise<void>((resolve) => (answer = resolve));
    h.store.healthProbe = async () => slow.then(probeDatabase);
    let parsed = 0;
    h.app.server.on('request', () => parsed++);
    const client = await raw(port);
    const first = LIMIT + 4;
    client.socket.write(HEALTH.repeat(first));
    await waitFor(() => parsed === first && counters.paused === 1);
    // Read at once, these would make more than HARD_FACTOR × limit wait and close the connection.
    const second = HARD_FACTOR * LIMIT + 6;
    client.socket.write(HEALTH.repeat(second));
    answer();
    expect(responseStatuses(await client.request('', first + second))).toEqual(Array<number>(first + second).fill(200));
    expect(counters.dropped).toBe(0);
  });
});
