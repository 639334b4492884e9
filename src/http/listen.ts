/**
 * Binds the HTTP app without fastify's address logging.
 *
 * fastify's listen() logs each address it serves; for 0.0.0.0 it lists the
 * network interfaces (os.networkInterfaces(), fastify lib/server.js
 * getAddresses), which opens an AF_NETLINK socket. Under systemd's
 * RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 that socket fails with
 * EAFNOSUPPORT and the exception, thrown from the 'listening' handler, kills
 * the process. So we bind fastify's server ourselves; the daemon logs the one
 * bound address. Only "localhost" goes through fastify's listen(): fastify then
 * binds 127.0.0.1 and ::1, and logs loopback addresses without any listing.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface ListenAddress {
  host: string;
  port: number;
}

export async function listenHttp(app: FastifyInstance, { host, port }: ListenAddress): Promise<AddressInfo> {
  if (host === 'localhost') {
    await app.listen({ host, port });
  } else {
    // Routes and plugins must be ready before the first request; app.close() still closes this server.
    await app.ready();
    const listening = once(app.server, 'listening');
    app.server.listen({ host, port });
    await listening;
  }
  return app.server.address() as AddressInfo;
}
