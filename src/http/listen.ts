/**
 * Binds the HTTP app without fastify's address logging.
 *
 * fastify's listen() logs each address it serves; for 0.0.0.0 it lists the
 * network interfaces (os.networkInterfaces(), fastify lib/server.js
 * getAddresses), which opens an AF_NETLINK socket. Under systemd's
 * RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 that socket fails with
 * EAFNOSUPPORT and the exception, thrown from the 'listening' handler, kills
 * the process. So we bind fastify's server ourselves; the daemon logs the one
 * bound address.
 *
 * "localhost" is bound as 127.0.0.1 through the same path. fastify's listen()
 * would open one extra server per other loopback address (::1, fastify
 * lib/server.js), and those would lack what app.ts and shutdown.ts set on
 * app.server: maxConnections, connection tracking for a graceful stop and the
 * clientError envelope. Clients that need ::1 can set http.host to "::1".
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface ListenAddress {
  host: string;
  port: number;
}

/** What "localhost" is bound as: one address, one server. */
export const LOCALHOST_BIND_ADDRESS = '127.0.0.1';

export async function listenHttp(app: FastifyInstance, { host, port }: ListenAddress): Promise<AddressInfo> {
  // Routes and plugins must be ready before the first request; app.close() still closes this server.
  await app.ready();
  const listening = once(app.server, 'listening');
  app.server.listen({ host: host === 'localhost' ? LOCALHOST_BIND_ADDRESS : host, port });
  await listening;
  return app.server.address() as AddressInfo;
}
