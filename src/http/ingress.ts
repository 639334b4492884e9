/**
 * Home Assistant's ingress (developers.home-assistant.io, "Presenting your app", Ingress): the
 * Supervisor at 172.30.32.2 proxies `/api/hassio_ingress/<token>/<path>` to the add-on's `/<path>` and
 * adds `X-Ingress-Path: /api/hassio_ingress/<token>`; "only connections from 172.30.32.2 must be
 * allowed". The header decides where the status page's files and endpoints are named, so it is
 * believed only from the configured proxy addresses (`http.ingressProxy`, the TCP peer itself, never
 * X-Forwarded-For) and only in the form a path prefix has: from anywhere else, or malformed, 403/400.
 */
import type { FastifyRequest } from 'fastify';
import { canonicalAddress } from './clientAddress.js';
import { HttpError } from '../util/httpError.js';

export const INGRESS_PATH_HEADER = 'x-ingress-path';
/** Path segments of letters, digits, "_", "-", "." (never "//", a scheme, quotes or spaces); at most 256 characters. */
const PREFIX = /^(\/[A-Za-z0-9_.~-]+)+$/;

/** The configured addresses (`http.ingressProxy`, comma-separated) in canonical form. */
export function ingressProxyAddresses(setting: string): ReadonlySet<string> {
  return new Set(
    setting
      .split(',')
      .map((entry) => canonicalAddress(entry.trim()))
      .filter((entry): entry is string => entry !== undefined),
  );
}

/** Throws for an ingress header from elsewhere or in a wrong form; the onRequest hook calls it. */
export function assertIngressAllowed(request: FastifyRequest, proxies: ReadonlySet<string>): void {
  const header = request.headers[INGRESS_PATH_HEADER];
  if (header === undefined) return;
  const peer = canonicalAddress(request.socket.remoteAddress);
  if (peer === undefined || !proxies.has(peer))
    throw new HttpError(403, 'X-Ingress-Path is accepted only from the Home Assistant ingress proxy (http.ingressProxy).');
  if (typeof header !== 'string' || header.length > 256 || !PREFIX.test(header.replace(/\/+$/, '')))
    throw new HttpError(400, 'X-Ingress-Path must be a path prefix such as /api/hassio_ingress/<token>.');
}

/** The ingress prefix of a request the hook let through (no trailing slash), or "" outside ingress. */
export function ingressPrefixOf(request: FastifyRequest): string {
  const header = request.headers[INGRESS_PATH_HEADER];
  return typeof header === 'string' ? header.replace(/\/+$/, '') : '';
}
