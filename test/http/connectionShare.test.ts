/**
 * Each address's share of the HTTP connection cap, on a listening server. The
 * attack: one client opens far more idle sockets than the cap and keeps them
 * open; before the share it held every slot and other clients' /health probes
 * were closed unanswered. Clients are told apart by their loopback source
 * address (127.0.0.2 floods, 127.0.0.3 probes), which needs no network setup.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { startHttpHarness, type HarnessOptions, type HttpHarness } from '../helpers/httpApp.js';
import { openRawClient, responseStatuses, type RawClient } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

const HEALTH = 'GET /health HTTP/1.1\r\nHost: test\r\n\r\n';
const CAP = 40;
const SHARE = 8;
const FLOOD = 3 * CAP;

describe('per-address share of the HTTP connection cap', () => {
  let h: HttpHarness;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await h.close();
  });

  const listen = async (env: Record<string, string>, logger?: HarnessOptions['logger']) => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_MAX_CONNECTIONS: String(CAP), MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(SHARE), ...env }, ...(logger ? { logger } : {}) });
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    return (h.app.server.address() as AddressInfo).port;
  };
  const open = async (port: number, from: string) => {
    const client = await openRawClient(port, '127.0.0.1', from);
    clients.push(client);
    return client;
  };
  const flood = async (port: number, from: string) => {
    const sockets: RawClient[] = [];
    for (let i = 0; i < FLOOD; i++) sockets.push(await open(port, from));
    return sockets;
  };
  const openConnections = () => new Promise<number>((resolve, reject) => h.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));

  it('one address holding three times the cap in idle sockets keeps only its share; another address still gets /health', async () => {
    const log = captureLogger('info');
    const port = await listen({}, log.logger);
    const sockets = await flood(port, '127.0.0.2');
    const closed = () => sockets.filter((socket) => socket.isClosed()).length;
    // At least what the cap alone refuses is closed before the probe.
    await waitFor(() => closed() >= FLOOD - CAP);

    const probe = await open(port, '127.0.0.3');
    expect(responseStatuses(await probe.request(HEALTH))).toEqual([200]);
    await waitFor(() => closed() === FLOOD - SHARE);
    expect(await openConnections()).toBe(SHARE + 1);
    // What the flooding address holds is still served.
    const held = sockets.find((socket) => !socket.isClosed())!;
    expect(responseStatuses(await held.request(HEALTH))).toEqual([200]);
    // One warning for the address, not one per closed connection.
    const warnings = log.lines().filter((line) => String(line.msg).startsWith('HTTP connection closed'));
    expect(warnings).toEqual([expect.objectContaining({ clientAddress: '127.0.0.2', limit: SHARE })]);
  });

  it('gives the share back as connections close', async () => {
    const port = await listen({});
    const first = [];
    for (let i = 0; i < SHARE; i++) first.push(await open(port, '127.0.0.2'));
    const over = await open(port, '127.0.0.2');
    await over.closed;
    first[0]!.socket.destroy();
    await waitFor(async () => (await openConnections()) === SHARE - 1);
    const again = await open(port, '127.0.0.2');
    expect(responseStatuses(await again.request(HEALTH))).toEqual([200]);
  });

  it('does not limit a trusted proxy, which carries many clients, nor anyone with the share off', async () => {
    let port = await listen({ MOWABILITY_TRUST_PROXY: 'loopback' });
    for (let i = 0; i < 2 * SHARE; i++) await open(port, '127.0.0.2');
    await waitFor(async () => (await openConnections()) === 2 * SHARE);
    for (const client of clients.splice(0)) client.socket.destroy();
    await h.close();

    port = await listen({ MOWABILITY_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' });
    for (let i = 0; i < 2 * SHARE; i++) await open(port, '127.0.0.2');
    await waitFor(async () => (await openConnections()) === 2 * SHARE);
    expect(clients.every((client) => !client.isClosed())).toBe(true);
  });
});
