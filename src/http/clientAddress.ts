/**
 * The client address that blocks, the rate limit and the request log use.
 *
 * Without trusted proxies it is the TCP peer. With them, X-Forwarded-For is
 * read from the right (RFC 7239 section 5.2: each proxy appends the address it
 * received the request from): starting at the peer, each trusted hop hands over
 * to the entry it appended, and the first hop that is not trusted is the
 * client. An entry that is not an IP address ends the walk; the hop that sent
 * it is the client, so a garbage value is never used as an address.
 *
 * fastify's own trustProxy is left off: its answer for `true` is the leftmost
 * entry (the client's own choice), newer versions ignore hop counts, and it
 * returns non-address entries unchanged. request.ip is therefore always the
 * TCP peer; the resolver below gives the address to use. It is a function of
 * the raw request rather than a request decorator because requests the router
 * rejects (fastify's frameworkErrors) are built without decorators.
 */
import { isIP, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';
import { AddressMatcher } from '../store/addressBlocks.js';
import { TRUST_PROXY_RANGES, parseTrustProxy, type TrustProxySetting } from '../config/trustProxy.js';

/** Is the hop at this position (0 = the TCP peer) with this address a trusted proxy? */
export type TrustHop = (address: string, hop: number) => boolean;

/** A trust function for the setting; undefined when no proxy is trusted. */
export function compileTrust(setting: TrustProxySetting): TrustHop | undefined {
  const parsed = parseTrustProxy(setting);
  if (parsed.kind === 'none') return undefined;
  if (parsed.kind === 'hops') return (_address, hop) => hop < parsed.hops;
  const entries = parsed.entries.flatMap((entry) => TRUST_PROXY_RANGES[entry] ?? [entry]);
  const matcher = new AddressMatcher(entries);
  return (address) => matcher.matches(address);
}

/**
 * Canonical form of an IP address, or undefined for anything else. Only the
 * textual forms (dotted decimal, RFC 4291 IPv6) count: "1", "0x7f.1" or an
 * address with a port are not what a proxy writes.
 */
export function canonicalAddress(text: string | undefined): string | undefined {
  if (text === undefined || isIP(text) === 0) return undefined;
  return ipaddr.process(text).toString();
}

/**
 * The client address for a peer and its X-Forwarded-For header (a string, or
 * several header lines). Pure, so the rules are tested without sockets.
 */
export function resolveClientAddress(peer: string, forwardedFor: string | string[] | undefined, trust: TrustHop | undefined): string {
  let client = canonicalAddress(peer) ?? peer;
  if (trust === undefined || forwardedFor === undefined) return client;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let hop = 0; hop < entries.length && trust(client, hop); hop++) {
    const next = canonicalAddress(entries[entries.length - 1 - hop]?.trim());
    if (next === undefined) break;
    client = next;
  }
  return client;
}

/** IPv6 clients share one rate-limit budget per prefix of this length: a home network gets a /64 (RFC 7421). */
export const RATE_LIMIT_IPV6_PREFIX = 64;

/** Rate-limit key: one bucket per IPv4 address and per IPv6 /64. */
export function rateLimitKey(clientAddress: string): string {
  // A canonical IPv4 address has no colon: no parser needed for the common case.
  if (!clientAddress.includes(':') || !ipaddr.IPv6.isValid(clientAddress)) return clientAddress;
  const parts = ipaddr.IPv6.parse(clientAddress).parts.slice(0, RATE_LIMIT_IPV6_PREFIX / 16);
  return `${parts.map((part) => part.toString(16)).join(':')}::/${RATE_LIMIT_IPV6_PREFIX}`;
}

/** Prefix lengths that make one key per client (IPv4 /32, IPv6 /64) and per network (IPv4 /24, IPv6 /48). */
export const CLIENT_PREFIX = { ipv4: 32, ipv6: RATE_LIMIT_IPV6_PREFIX } as const;
export const NETWORK_PREFIX = { ipv4: 24, ipv6: 48 } as const;

/**
 * The network an address lies in, as text (`198.51.100.0/24`, `2001:db8:1::/48`); the address itself
 * for a full-length prefix and for anything that is not an address.
 */
export function prefixKey(clientAddress: string, bits: { ipv4: number; ipv6: number }): string {
  if (!ipaddr.isValid(clientAddress)) return clientAddress;
  const address = ipaddr.process(clientAddress);
  const length = address.kind() === 'ipv4' ? bits.ipv4 : bits.ipv6;
  if (length === (address.kind() === 'ipv4' ? 32 : 128)) return address.toString();
  const bytes = address.toByteArray().map((byte, index) => {
    const kept = Math.max(0, Math.min(8, length - index * 8));
    return byte & (0xff << (8 - kept)) & 0xff;
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${length}`;
}

/** The validated client address of a request (canonical text, IPv4-mapped IPv6 as IPv4). */
export type ClientAddressOf = (request: FastifyRequest) => string;

export function createClientAddressResolver(setting: TrustProxySetting): ClientAddressOf {
  const trust = compileTrust(setting);
  // Blocks, rate limit, access log and metrics each ask; resolve once per request (keyed on the raw
  // request, which also exists for requests the router rejects).
  const resolved = new WeakMap<FastifyRequest['raw'], string>();
  // The peer of a connection never changes: its canonical form is parsed once per connection, not per request.
  const peers = new WeakMap<Socket, string>();
  const peerOf = (socket: Socket | undefined): string => {
    const known = socket === undefined ? undefined : peers.get(socket);
    if (known !== undefined) return known;
    const remote = socket?.remoteAddress;
    const peer = canonicalAddress(remote) ?? remote ?? '';
    if (socket !== undefined && remote !== undefined) peers.set(socket, peer);
    return peer;
  };
  return (request) => {
    let address = resolved.get(request.raw);
    if (address === undefined) {
      const peer = peerOf(request.raw.socket);
      address = trust === undefined ? peer : resolveClientAddress(peer, request.raw.headers['x-forwarded-for'], trust);
      resolved.set(request.raw, address);
    }
    return address;
  };
}
