import { afterEach, describe, expect, it } from 'vitest';
import {
  CLIENT_PREFIX,
  NETWORK_PREFIX,
  compileTrust,
  prefixKey,
  rateLimitKey,
  resolveClientAddress,
} from '../../src/http/clientAddress.js';
import { addKey, CHANGE_DEADLINE_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';

describe('resolveClientAddress (pure)', () => {
  const list = compileTrust(['127.0.0.1', '10.0.0.0/8', '::1']);

  it('without trusted proxies the peer is the client, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('198.51.100.4', '203.0.113.7', compileTrust(false))).toBe('198.51.100.4');
  });

  it('takes the first untrusted hop from the right, not the leftmost entry', () => {
    expect(resolveClientAddress('127.0.0.1', '8.8.8.8, 203.0.113.7', list)).toBe('203.0.113.7');
    expect(resolveClientAddress('127.0.0.1', '8.8.8.8, 203.0.113.7, 10.1.2.3', list)).toBe('203.0.113.7');
    // Several header lines count as one list, in order.
    expect(resolveClientAddress('127.0.0.1', ['8.8.8.8', '203.0.113.7'], list)).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(resolveClientAddress('198.51.100.4', '8.8.8.8', list)).toBe('198.51.100.4');
  });

  it('with a hop count trusts exactly that many hops', () => {
    const one = compileTrust(1);
    const two = compileTrust(2);
    expect(resolveClientAddress('127.0.0.1', '8.8.8.8, 203.0.113.7', one)).toBe('203.0.113.7');
    expect(resolveClientAddress('127.0.0.1', '8.8.8.8, 203.0.113.7, 10.0.0.2', two)).toBe('203.0.113.7');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7', two)).toBe('203.0.113.7');
  });

  it('never uses an entry that is not an IP address: the hop that sent it is the client', () => {
    expect(resolveClientAddress('127.0.0.1', 'garbage', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7, unknown', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7:4711', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '2130706433', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '203.0.113.7, 10.0.0.5, junk', list)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', 'junk, 10.0.0.5', list)).toBe('10.0.0.5');
    expect(resolveClientAddress('127.0.0.1', 'x, y, z', compileTrust(3))).toBe('127.0.0.1');
  });

  it('handles IPv6 and IPv4-mapped peers; addresses come out canonical', () => {
    expect(resolveClientAddress('::1', '2001:db8::1, 2001:DB8:0:0::7', list)).toBe('2001:db8::7');
    expect(resolveClientAddress('::ffff:127.0.0.1', '203.0.113.7', list)).toBe('203.0.113.7');
    expect(resolveClientAddress('::ffff:198.51.100.4', '203.0.113.7', list)).toBe('198.51.100.4');
    expect(resolveClientAddress('127.0.0.1', '::ffff:203.0.113.7', list)).toBe('203.0.113.7');
  });

  it('expands the range names', () => {
    const names = compileTrust('loopback,uniquelocal');
    expect(resolveClientAddress('127.0.0.5', '8.8.8.8, 192.168.1.2, 203.0.113.7, 172.16.0.1', names)).toBe('203.0.113.7');
    expect(resolveClientAddress('::1', 'fd00::1, 2001:db8::5', names)).toBe('2001:db8::5');
  });

  it('keys the rate limit per IPv4 address and per IPv6 /64', () => {
    expect(rateLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe(rateLimitKey('2001:db8:1:2:bbbb::2'));
    expect(rateLimitKey('2001:db8:1:2::1')).not.toBe(rateLimitKey('2001:db8:1:3::1'));
  });

  it("keys clients and networks by prefix, the client key matching the rate limit's", () => {
    expect(prefixKey('2001:db8:1:2:aaaa::1', CLIENT_PREFIX)).toBe('2001:db8:1:2::/64');
    expect(prefixKey('2001:db8:1:2:aaaa::1', NETWORK_PREFIX)).toBe('2001:db8:1::/48');
    expect(prefixKey('203.0.113.7', CLIENT_PREFIX)).toBe('203.0.113.7');
    expect(prefixKey('203.0.113.7', NETWORK_PREFIX)).toBe('203.0.113.0/24');
    expect(prefixKey('203.0.113.7', { ipv4: 20, ipv6: 128 })).toBe('203.0.112.0/20');
    expect(prefixKey('2001:db8::7', { ipv4: 20, ipv6: 128 })).toBe('2001:db8::7');
    expect(prefixKey('not an address', NETWORK_PREFIX)).toBe('not an address');
  });
});

describe('client address behind a reverse proxy (attack: X-Forwarded-For spoofing)', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => h?.close());

  const start = async (trustProxy: string, rateLimitMax = 600) => {
    h = await startHttpHarness({ env: { MOWABILITY_TRUST_PROXY: trustProxy, MOWABILITY_RATE_LIMIT_MAX: String(rateLimitMax) } });
    return h;
  };
  const block = async (harness: HttpHarness, address: string) => {
    await harness.store.blockAddress(address);
    await waitFor(() => harness.access.isBlocked(address.split('/')[0] ?? address), CHANGE_DEADLINE_MS);
  };
  const calculate = (harness: HttpHarness, key: string, remoteAddress: string, forwardedFor?: string) =>
    harness.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      remoteAddress,
      headers: { authorization: `Bearer ${key}`, ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) },
      payload: MINIMAL_INPUT,
    });

  it.each([['127.0.0.1'], ['1'], ['loopback']])(
    'a blocked client that prepends a fake address still gets 403 (trustProxy %s)',
    async (trustProxy) => {
      const harness = await start(trustProxy);
      const { key } = await addKey(harness);
      await block(harness, '203.0.113.7');
      // What nginx forwards with $proxy_add_x_forwarded_for when the client sent "X-Forwarded-For: 8.8.8.8".
      const response = await calculate(harness, key, '127.0.0.1', '8.8.8.8, 203.0.113.7');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ status: 'error', mfi: null, message: 'Access denied.' });
      expect((await calculate(harness, key, '127.0.0.1', '203.0.113.8')).statusCode).toBe(200);
    },
  );

  it('blocks an IPv6 client behind an IPv6 proxy given as a CIDR list', async () => {
    const harness = await start('::1/128, 10.0.0.0/8');
    const { key } = await addKey(harness);
    await block(harness, '2001:db8::/64');
    const response = await calculate(harness, key, '::1', '2001:db8:ffff::1, 2001:db8::7');
    expect(response.statusCode).toBe(403);
    expect((await calculate(harness, key, '::1', '2001:db8::7, 2001:db8:ffff::1')).statusCode).toBe(200);
    // A peer outside the list cannot speak for anyone: its own address counts.
    expect((await calculate(harness, key, '198.51.100.4', '2001:db8::7')).statusCode).toBe(200);
  });

  it('a chain of trusted proxies given as CIDRs hands over to the first untrusted hop', async () => {
    const harness = await start('127.0.0.1,10.0.0.0/8');
    const { key } = await addKey(harness);
    await block(harness, '203.0.113.7');
    expect((await calculate(harness, key, '127.0.0.1', '8.8.8.8, 203.0.113.7, 10.9.8.7')).statusCode).toBe(403);
  });

  it('rate-limits the real client, however it varies the entries it controls', async () => {
    const harness = await start('127.0.0.1', 3);
    const { key } = await addKey(harness);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await calculate(harness, key, '127.0.0.1', `198.51.100.${i}, 203.0.113.7`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another client behind the same proxy has its own budget.
    expect((await calculate(harness, key, '127.0.0.1', '203.0.113.8')).statusCode).toBe(200);
  });

  it('garbage X-Forwarded-For values are not addresses: they count against the hop that sent them', async () => {
    const harness = await start('127.0.0.1', 3);
    const { key } = await addKey(harness);
    const statuses: number[] = [];
    for (const garbage of ['garbage', '<script>', 'unknown', '999.1.1.1'])
      statuses.push((await calculate(harness, key, '127.0.0.1', garbage)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await block(harness, '127.0.0.1');
    expect((await calculate(harness, key, '127.0.0.1', 'not-an-address')).statusCode).toBe(403);
  });
});
