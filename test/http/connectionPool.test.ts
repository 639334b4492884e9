/**
 * The connection pool's grouping of clients, on real sockets with given peer addresses: IPv6
 * clients are grouped by http.ipv6SharePrefix (loopback offers one IPv6 address, so the peers are
 * named here; test/http/connectionShare.test.ts runs the pool on a listening server).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionCounters } from '../../src/http/connectionCounters.js';
import { ConnectionPool } from '../../src/http/connectionPool.js';
import { connectionPoolOptions } from '../../src/http/server.js';

describe('connection pool: clients by address and IPv6 prefix', () => {
  let server: Server | undefined;
  const opened: Socket[] = [];
  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  /** `count` server-side sockets of real loopback connections. */
  const sockets = async (count: number): Promise<Socket[]> => {
    const accepted: Socket[] = [];
    server = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    for (let i = 0; i < count; i++) {
      const client = connect({ port, host: '127.0.0.1' });
      client.on('error', () => undefined);
      opened.push(client);
    }
    await new Promise<void>((resolve) => {
      const check = () => (accepted.length === count ? resolve() : setImmediate(check));
      check();
    });
    opened.push(...accepted);
    return accepted;
  };
  const pool = (ipv6SharePrefix: number, maxConnectionsPerAddress = 2) => {
    const counters = createConnectionCounters();
    const options = connectionPoolOptions(
      { maxConnections: 100, maxConnectionsPerAddress, connectionReserve: 0, ipv6SharePrefix, trustProxy: false },
      pino({ level: 'silent' }),
      counters,
    );
    return { pool: new ConnectionPool(options), counters };
  };

  it('counts one IPv6 /64 as one client by default; another /64 is another client', async () => {
    const [a, b, c, d] = await sockets(4);
    const { pool: shared, counters } = pool(64);
    shared.admit(a!, '2001:db8:0:1::a');
    shared.admit(b!, '2001:db8:0:1::b');
    // Third from the same /64: its oldest idle connection gives way.
    shared.admit(c!, '2001:db8:0:1:ffff::c');
    expect([a!.destroyed, b!.destroyed, c!.destroyed]).toEqual([true, false, false]);
    shared.admit(d!, '2001:db8:0:2::a');
    expect(d!.destroyed).toBe(false);
    expect(counters.evicted.share).toBe(1);
    expect(shared.size).toBe(3);
  });

  it("with http.ipv6SharePrefix 56 a household's /64s are one client; busy connections are refused a swap", async () => {
    const [a, b, c, d] = await sockets(4);
    const { pool: shared, counters } = pool(56);
    shared.admit(a!, '2001:db8:0:1::a');
    shared.admit(b!, '2001:db8:0:2::a');
    shared.busy(a!);
    shared.busy(b!);
    shared.admit(c!, '2001:db8:0:ff::a');
    expect([a!.destroyed, b!.destroyed, c!.destroyed]).toEqual([false, false, true]);
    expect(counters.refused.share).toBe(1);
    // 2001:db8:0:100::/56 is another household.
    shared.admit(d!, '2001:db8:0:100::a');
    expect(d!.destroyed).toBe(false);
  });
});
