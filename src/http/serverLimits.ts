/**
 * Limits of the Node HTTP server under fastify: request and header deadlines,
 * the connection cap and each address's share of it. They protect a small
 * machine from clients that open many connections and send nothing (each holds
 * a file descriptor and memory), and the share keeps one such client from
 * holding every slot while others (a health probe) are turned away.
 */
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { TrustProxySetting } from '../config/trustProxy.js';
import { LogThrottle } from '../util/logThrottle.js';
import { canonicalAddress, compileTrust, rateLimitKey } from './clientAddress.js';

export interface ServerLimitSettings {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  maxConnections: number;
}

/** Node's upper bound for checking deadlines; finer when the deadlines are short. */
const MAX_CHECK_INTERVAL_MS = 30_000;
const MIN_CHECK_INTERVAL_MS = 100;

/**
 * Options for http.createServer. Node 20 enforces the deadlines only when they
 * are given at construction, checked every connectionsCheckingInterval (a
 * quarter of the shorter deadline here). headersTimeout must not exceed
 * requestTimeout (Node throws), so it is capped by it. requireHostHeader is
 * off because Node would answer a missing Host with an empty 400; the app
 * answers it with the error envelope instead.
 */
export function serverOptions(settings: Pick<ServerLimitSettings, 'requestTimeoutMs' | 'headersTimeoutMs'>): ServerOptions {
  const { requestTimeoutMs } = settings;
  const headersTimeout = requestTimeoutMs > 0 ? Math.min(settings.headersTimeoutMs, requestTimeoutMs) : settings.headersTimeoutMs;
  const shortest = requestTimeoutMs > 0 ? Math.min(requestTimeoutMs, headersTimeout) : headersTimeout;
  return {
    ...(requestTimeoutMs > 0 ? { requestTimeout: requestTimeoutMs } : {}),
    headersTimeout,
    connectionsCheckingInterval: Math.max(MIN_CHECK_INTERVAL_MS, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shortest / 4))),
    requireHostHeader: false,
  };
}

/**
 * Caps open connections: Node closes each connection over the cap right
 * after accepting it, so the ones already open keep being served.
 */
export function applyConnectionCap(server: Server, maxConnections: number): void {
  if (maxConnections > 0) server.maxConnections = maxConnections;
}

export interface ConnectionShareOptions {
  /** Most connections one address (an IPv4 address, an IPv6 /64) may hold at once; 0: no share. */
  perAddress: number;
  /** Peers without a share (trusted reverse proxies: they carry many clients' requests). */
  exempt: (peer: string) => boolean;
  /** Told of each connection closed for being over the share, with the address's key. */
  onRefused?: (key: string) => void;
}

/**
 * Closes a new connection at once when its address (keyed like the rate limit:
 * IPv4 address, IPv6 /64) already holds `perAddress` open connections. The
 * connections it holds keep being served; the others' slots stay free.
 */
export function applyConnectionShare(server: Server, options: ConnectionShareOptions): void {
  if (options.perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const remote = socket.remoteAddress ?? '';
    const peer = canonicalAddress(remote) ?? remote;
    if (options.exempt(peer)) return;
    const key = rateLimitKey(peer);
    const count = (open.get(key) ?? 0) + 1;
    if (count > options.perAddress) {
      socket.destroy();
      options.onRefused?.(key);
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** The share as configured: trusted proxies exempt, each refusal logged at most once a minute per address. */
export function connectionShareOptions(http: { maxConnectionsPerAddress: number; trustProxy: TrustProxySetting }, log: Logger): ConnectionShareOptions {
  const trust = compileTrust(http.trustProxy);
  const throttle = new LogThrottle(log);
  return {
    perAddress: http.maxConnectionsPerAddress,
    exempt: (peer) => trust?.(peer, 0) ?? false,
    onRefused: (key) =>
      throttle.warn(`connection-share:${key}`, { clientAddress: key, limit: http.maxConnectionsPerAddress }, 'HTTP connection closed: this address already holds http.maxConnectionsPerAddress connections'),
  };
}
