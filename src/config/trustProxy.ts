/**
 * The http.trustProxy setting: which reverse proxies may tell the service the
 * client address (X-Forwarded-For). `false` (none), a hop count, or a list of
 * proxy addresses, CIDR ranges and range names. `true` ("trust everything")
 * is refused: it lets any client choose its address.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What a configuration may hold: false, a hop count, a list, or (env/flags) a comma-separated list. */
export type TrustProxySetting = false | number | string | readonly string[];

export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; entries: readonly string[] };

/** Largest hop count accepted; more proxies in a row than this is a typo. */
export const MAX_TRUST_PROXY_HOPS = 16;

/** Named ranges, as in Express's and fastify's trust proxy setting (proxy-addr). */
export const TRUST_PROXY_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const FIX =
  'write false (no proxy), the number of reverse proxies in front of the service (1 for one nginx or Caddy), ' +
  'or the proxies\' addresses/CIDR ranges, e.g. ["127.0.0.1", "::1"] or "loopback"';

const TRUE_WORDS = new Set(['true', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', '']);

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** Environment and flag strings: "false" → false, "2" → 2, "true" stays for the error, anything else a list. */
export function coerceTrustProxy(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  if (FALSE_WORDS.has(word)) return false;
  if (TRUE_WORDS.has(word)) return true;
  if (/^\d+$/.test(word)) return Number(word);
  return splitList(value);
}

function isAddressOrRange(entry: string): boolean {
  if (Object.hasOwn(TRUST_PROXY_RANGES, entry)) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  if (isIP(entry.slice(0, slash)) === 0) return false;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Parses a validated or unvalidated value; throws an Error whose message names the fix. */
export function parseTrustProxy(value: unknown): TrustProxy {
  if (value === false || value === 0) return { kind: 'none' };
  if (value === true) {
    throw new Error(`true would trust every address, so any client could choose its own address (X-Forwarded-For); ${FIX}`);
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > MAX_TRUST_PROXY_HOPS) {
      throw new Error(`a hop count must be a whole number from 0 to ${MAX_TRUST_PROXY_HOPS}; ${FIX}`);
    }
    return { kind: 'hops', hops: value };
  }
  const list: unknown = typeof value === 'string' ? splitList(value) : value;
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string')) throw new Error(`must be false, a number or a list; ${FIX}`);
  const entries = splitList((list as string[]).join(','));
  if (entries.length === 0) return { kind: 'none' };
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    throw new Error(
      `${bad.map((entry) => JSON.stringify(entry)).join(', ')} is not an IP address, CIDR range or one of ${Object.keys(TRUST_PROXY_RANGES).join(', ')}; ${FIX}`,
    );
  }
  return { kind: 'list', entries };
}
