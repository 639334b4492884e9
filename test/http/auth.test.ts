import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addKey, CHANGE_DEADLINE_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const QUERY = 'temperature=18&precipitation_rate=0';

function expectError(response: { statusCode: number; json(): unknown }, statusCode: number, message: string): void {
  expect(response.statusCode).toBe(statusCode);
  expect(response.json()).toEqual({ status: 'error', mfi: null, message });
}

describe('authentication (spec: Authentication and Errors tables)', () => {
  let h: HttpHarness;
  let postKey: string;
  let getKey: string;
  beforeEach(async () => {
    h = await startHttpHarness();
    postKey = (await addKey(h, 'post-only')).key;
    getKey = (await addKey(h, 'get-enabled', { allowGet: true })).key;
  });
  afterEach(async () => h.close());

  const block = async (address: string) => {
    await h.store.blockAddress(address);
    await waitFor(() => h.access.isBlocked(address.split('/')[0] ?? address), CHANGE_DEADLINE_MS);
  };

  describe('error rows', () => {
    it('401 "No API key provided." — no key in the request', async () => {
      expectError(await h.app.inject({ method: 'POST', url: '/v1/calculate', payload: MINIMAL_INPUT }), 401, 'No API key provided.');
      expectError(await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}` }), 401, 'No API key provided.');
    });

    it('401 "Invalid API key." — key unknown', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: 'Bearer mow_unknown' },
        payload: MINIMAL_INPUT,
      });
      expectError(response, 401, 'Invalid API key.');
    });

    it('403 "API key is disabled." — key blocked', async () => {
      const { id, key } = await addKey(h, 'to-disable');
      await h.store.setKeyDisabled(id, true);
      await waitFor(() => h.access.lookupKey(key)?.disabled === true, CHANGE_DEADLINE_MS);
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${key}` },
        payload: MINIMAL_INPUT,
      });
      expectError(response, 403, 'API key is disabled.');
    });

    it('403 "Access denied." — client IP address blocked (single IPv4)', async () => {
      await block('203.0.113.5');
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        remoteAddress: '203.0.113.5',
        headers: { authorization: `Bearer ${postKey}` },
        payload: MINIMAL_INPUT,
      });
      expectError(response, 403, 'Access denied.');
      const other = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        remoteAddress: '203.0.113.6',
        headers: { authorization: `Bearer ${postKey}` },
        payload: MINIMAL_INPUT,
      });
      expect(other.statusCode).toBe(200);
    });

    it('403 "Access denied." — client IP address blocked by an IPv4 CIDR, also as IPv4-mapped IPv6', async () => {
      await block('198.51.100.0/24');
      for (const remoteAddress of ['198.51.100.77', '::ffff:198.51.100.77']) {
        const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', remoteAddress, payload: MINIMAL_INPUT });
        expectError(response, 403, 'Access denied.');
      }
    });

    it('403 "Access denied." — client IP address blocked by an IPv6 range', async () => {
      await block('2001:db8::/32');
      const response = await h.app.inject({ method: 'GET', url: '/health', remoteAddress: '2001:db8:1::9' });
      expectError(response, 403, 'Access denied.');
    });

    it('405 "HTTP method not allowed." — GET with a POST-only key', async () => {
      const header = await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}`, headers: { authorization: `Bearer ${postKey}` } });
      expectError(header, 405, 'HTTP method not allowed.');
      const query = await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}&api_key=${postKey}` });
      expectError(query, 405, 'HTTP method not allowed.');
    });
  });

  describe('ways to send the key', () => {
    it('Authorization header (recommended) — always allowed, on POST and for GET keys on GET', async () => {
      const post = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${postKey}` },
        payload: MINIMAL_INPUT,
      });
      expect(post.statusCode).toBe(200);
      const get = await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}`, headers: { authorization: `bearer ${getKey}` } });
      expect(get.statusCode).toBe(200);
    });

    it('Query parameter — api_key on GET for keys enabled for GET', async () => {
      const response = await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}&api_key=${getKey}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('ok');
    });

    it('Form body field — api_key in a form-encoded POST body', async () => {
      const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: FORM, payload: `${QUERY}&api_key=${postKey}` });
      expect(response.statusCode).toBe(200);
      expect(response.json().mfi.available_fields).toEqual(['temperature', 'precipitation_rate']);
    });

    it('a query api_key on a POST is not a key', async () => {
      const response = await h.app.inject({ method: 'POST', url: `/v1/calculate?api_key=${postKey}`, payload: MINIMAL_INPUT });
      expectError(response, 401, 'No API key provided.');
    });

    it('an api_key field in a JSON body is not a key', async () => {
      const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', payload: { ...MINIMAL_INPUT, api_key: postKey } });
      expectError(response, 401, 'No API key provided.');
    });

    it('a form key sent twice counts once (the first), not as "no key"', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: FORM,
        payload: `${QUERY}&api_key=${postKey}&api_key=${postKey}`,
      });
      expect(response.statusCode).toBe(200);
      const wrongFirst = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: FORM,
        payload: `${QUERY}&api_key=mow_nope&api_key=${postKey}`,
      });
      expectError(wrongFirst, 401, 'Invalid API key.');
    });

    it('a wrong form key is "Invalid API key."', async () => {
      const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: FORM, payload: `${QUERY}&api_key=mow_nope` });
      expectError(response, 401, 'Invalid API key.');
    });

    it('a non-Bearer Authorization header is no key', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Basic ${postKey}` },
        payload: MINIMAL_INPUT,
      });
      expectError(response, 401, 'No API key provided.');
    });
  });

  describe('order of the checks', () => {
    it('a blocked address is refused before the key is looked at', async () => {
      await block('192.0.2.1');
      const response = await h.app.inject({ method: 'POST', url: '/v1/calculate', remoteAddress: '192.0.2.1', payload: MINIMAL_INPUT });
      expectError(response, 403, 'Access denied.');
    });

    it('a disabled key on GET is "API key is disabled." rather than 405', async () => {
      const { id, key } = await addKey(h, 'disabled-post-only');
      await h.store.setKeyDisabled(id, true);
      await waitFor(() => h.access.lookupKey(key)?.disabled === true, CHANGE_DEADLINE_MS);
      const response = await h.app.inject({ method: 'GET', url: `/v1/calculate?${QUERY}`, headers: { authorization: `Bearer ${key}` } });
      expectError(response, 403, 'API key is disabled.');
    });

    it('an unauthenticated client gets 401 before its JSON body is parsed', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      });
      expectError(response, 401, 'No API key provided.');
    });
  });

  describe('client address behind a reverse proxy', () => {
    it('with trustProxy the address comes from X-Forwarded-For', async () => {
      const proxied = await startHttpHarness({ env: { MOWABILITY_TRUST_PROXY: '127.0.0.1' } });
      try {
        await proxied.store.blockAddress('203.0.113.99');
        await waitFor(() => proxied.access.isBlocked('203.0.113.99'), CHANGE_DEADLINE_MS);
        const response = await proxied.app.inject({
          method: 'GET',
          url: '/health',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.99' },
        });
        expectError(response, 403, 'Access denied.');
      } finally {
        await proxied.close();
      }
    });

    it('without trustProxy X-Forwarded-For is ignored', async () => {
      await block('203.0.113.99');
      const response = await h.app.inject({
        method: 'GET',
        url: '/health',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.99' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

  it('a key created by another connection (the CLI) works without a restart', async () => {
    const { Database } = await import('../../src/store/database.js');
    const { ServiceStore } = await import('../../src/store/serviceStore.js');
    const other = await Database.open(h.config.db.path);
    try {
      const created = await new ServiceStore(other, { now: () => 0 }).addKey('from-cli');
      await waitFor(async () => {
        const response = await h.app.inject({
          method: 'POST',
          url: '/v1/calculate',
          headers: { authorization: `Bearer ${created.key}` },
          payload: MINIMAL_INPUT,
        });
        return response.statusCode === 200;
      }, CHANGE_DEADLINE_MS);
    } finally {
      await other.close();
    }
  });
});
