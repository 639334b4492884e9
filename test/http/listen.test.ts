import dns from 'node:dns';
import { connect, createServer, type Server } from 'node:net';
import os from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALHOST_BIND_ADDRESS, listenHttp } from '../../src/http/listen.js';

/** Whether a TCP connection to host:port is accepted (ECONNREFUSED, EADDRNOTAVAIL: no). */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** What os.networkInterfaces() throws under RestrictAddressFamilies= without AF_NETLINK. */
function failInterfaceListing(): void {
  vi.spyOn(os, 'networkInterfaces').mockImplementation(() => {
    throw Object.assign(new Error('uv_interface_addresses returned Unknown system error 97'), { code: 'ERR_SYSTEM_ERROR' });
  });
}

describe('listenHttp', () => {
  let app: FastifyInstance | undefined;
  let blocker: Server | undefined;

  afterEach(async () => {
    vi.restoreAllMocks();
    await app?.close();
    blocker?.close();
    app = blocker = undefined;
  });

  function buildApp(): FastifyInstance {
    const built = Fastify();
    built.get('/ping', async () => ({ pong: true }));
    return built;
  }

  it('binds 0.0.0.0 without listing the network interfaces, serves, and closes with app.close()', async () => {
    failInterfaceListing();
    app = buildApp();
    const address = await listenHttp(app, { host: '0.0.0.0', port: 0 });
    expect(address.address).toBe('0.0.0.0');
    expect(os.networkInterfaces).not.toHaveBeenCalled();
    const response = await fetch(`http://127.0.0.1:${address.port}/ping`);
    expect(await response.json()).toEqual({ pong: true });
    await app.close();
    expect(app.server.listening).toBe(false);
  });

  it('regression: binds "localhost" as 127.0.0.1 on app.server alone, so every connection gets its limits', async () => {
    failInterfaceListing();
    // Debian's /etc/hosts also maps ::1 to localhost (this machine's may not): fastify then opened a second server on ::1.
    const lookup = dns.lookup;
    vi.spyOn(dns, 'lookup').mockImplementation((name: string, ...rest: unknown[]) => {
      const callback = rest.at(-1) as (err: null, ...result: unknown[]) => void;
      if (name !== 'localhost') return (lookup as (...args: unknown[]) => void)(name, ...rest);
      const all = typeof rest[0] === 'object' && (rest[0] as { all?: boolean } | null)?.all === true;
      if (all)
        callback(null, [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ]);
      else callback(null, '127.0.0.1', 4);
    });
    app = buildApp();
    // What app.ts sets on app.server; a second server that fastify opened for ::1 had none of it.
    app.server.maxConnections = 1;
    const address = await listenHttp(app, { host: 'localhost', port: 0 });
    expect(address.address).toBe(LOCALHOST_BIND_ADDRESS);
    expect(os.networkInterfaces).not.toHaveBeenCalled();
    expect(await (await fetch(`http://127.0.0.1:${address.port}/ping`)).json()).toEqual({ pong: true });
    await expect(connects('::1', address.port)).resolves.toBe(false);
  });

  it('rejects with the bind error when the port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker?.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    app = buildApp();
    await expect(listenHttp(app, { host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
