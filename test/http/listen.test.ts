import { createServer, type Server } from 'node:net';
import os from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenHttp } from '../../src/http/listen.js';

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

  it('lets fastify bind "localhost" (loopback only, no interface listing either)', async () => {
    failInterfaceListing();
    app = buildApp();
    const address = await listenHttp(app, { host: 'localhost', port: 0 });
    expect(['127.0.0.1', '::1']).toContain(address.address);
    expect(os.networkInterfaces).not.toHaveBeenCalled();
  });

  it('rejects with the bind error when the port is taken', async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker?.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    app = buildApp();
    await expect(listenHttp(app, { host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
