import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addKey, CHANGE_DEADLINE_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { lastBody, openRawClient, responseStatuses } from '../helpers/httpRawSocket.js';
import { waitFor } from '../helpers/httpTempDir.js';

const ENVELOPE = (message: string) => ({ status: 'error', mfi: null, message });

describe('responses fastify and Node would answer outside the envelope', () => {
  let h: HttpHarness;
  afterEach(async () => h.close());

  it('a path with a broken percent-encoding gets 400 and the envelope, not FST_ERR_BAD_URL', async () => {
    h = await startHttpHarness();
    for (const url of ['/v1/%zz', '/%', '/v1/calculate%E0%A4%A', '/health/%c0']) {
      const response = await h.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json(), url).toEqual(ENVELOPE('Malformed URL: the path contains an invalid percent-encoding.'));
    }
  });

  it('a blocked client gets 403 on a malformed path too', async () => {
    h = await startHttpHarness();
    await h.store.blockAddress('203.0.113.7');
    await waitFor(() => h.access.isBlocked('203.0.113.7'), CHANGE_DEADLINE_MS);
    const response = await h.app.inject({ method: 'GET', url: '/v1/%zz', remoteAddress: '203.0.113.7' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(ENVELOPE('Access denied.'));
  });

  it('unknown paths and malformed paths are rate-limited, sharing the budget of the other routes', async () => {
    h = await startHttpHarness({ env: { MOWABILITY_RATE_LIMIT_MAX: '3' } });
    const { key } = await addKey(h);
    const from = { remoteAddress: '198.51.100.20' };
    const statuses = [
      (await h.app.inject({ method: 'GET', url: '/nope', ...from })).statusCode,
      (
        await h.app.inject({
          method: 'POST',
          url: '/v1/calculate',
          headers: { authorization: `Bearer ${key}` },
          payload: MINIMAL_INPUT,
          ...from,
        })
      ).statusCode,
      (await h.app.inject({ method: 'GET', url: '/v1/%zz', ...from })).statusCode,
    ];
    expect(statuses).toEqual([404, 200, 400]);
    const limited = await h.app.inject({ method: 'GET', url: '/nope', ...from });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toEqual(ENVELOPE('Too many requests. Retry after the time given in the Retry-After header.'));
    const limitedBadUrl = await h.app.inject({ method: 'GET', url: '/v1/%zz', ...from });
    expect(limitedBadUrl.statusCode).toBe(429);
    expect(limitedBadUrl.json()).toEqual(ENVELOPE('Too many requests. Retry after the time given in the Retry-After header.'));
    // 405 on a known path goes through the same handler and counts as well.
    expect((await h.app.inject({ method: 'DELETE', url: '/v1/calculate', ...from })).statusCode).toBe(429);
    // Health stays exempt, and other clients keep their own budget.
    expect((await h.app.inject({ method: 'GET', url: '/health', ...from })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/nope', remoteAddress: '198.51.100.21' })).statusCode).toBe(404);
  });

  describe('on a listening server (raw sockets)', () => {
    const listen = async () => {
      h = await startHttpHarness();
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      return (h.app.server.address() as AddressInfo).port;
    };

    it('an HTTP/1.1 request without Host gets 400 and the envelope, not an empty body', async () => {
      const port = await listen();
      const client = await openRawClient(port);
      try {
        const raw = await client.request('GET /health HTTP/1.1\r\n\r\n');
        expect(responseStatuses(raw)).toEqual([400]);
        expect(raw).toMatch(/\r\ncontent-type: application\/json/i);
        expect(JSON.parse(lastBody(raw))).toEqual(ENVELOPE('Missing Host header (required by HTTP/1.1).'));
      } finally {
        client.socket.destroy();
      }
    });

    it('the same on the calculation path, and the connection keeps working with a Host', async () => {
      const port = await listen();
      const client = await openRawClient(port);
      try {
        const body = JSON.stringify(MINIMAL_INPUT);
        const raw = await client.request(
          `POST /v1/calculate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        expect(responseStatuses(raw)).toEqual([400]);
        expect(JSON.parse(lastBody(raw)).message).toBe('Missing Host header (required by HTTP/1.1).');
        if (!client.isClosed())
          expect(responseStatuses(await client.request('GET /health HTTP/1.1\r\nHost: test\r\n\r\n', 2))).toEqual([400, 200]);
      } finally {
        client.socket.destroy();
      }
    });

    it('HTTP/1.0 does not need a Host header', async () => {
      const port = await listen();
      const client = await openRawClient(port);
      try {
        const raw = await client.request('GET /health HTTP/1.0\r\n\r\n');
        expect(responseStatuses(raw)).toEqual([200]);
      } finally {
        client.socket.destroy();
      }
    });
  });
});
