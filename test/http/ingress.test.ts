/**
 * Home Assistant's ingress header (src/http/ingress.ts): believed only from http.ingressProxy (the
 * Supervisor's 172.30.32.2), never from another address, however it is dressed up (X-Forwarded-For
 * naming the Supervisor, the header on the page, an API route or /health); a malformed prefix is
 * refused even from the proxy; under a good prefix the page names every file and link under it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

const SUPERVISOR = '172.30.32.2';
const PREFIX = '/api/hassio_ingress/Xy_9-token';

describe('ingress', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses X-Ingress-Path from any address but the ingress proxy, also with X-Forwarded-For naming the proxy', async () => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_INGRESS_PROXY: SUPERVISOR, MOWABILITY_TRUST_PROXY: 'loopback' } });
    for (const [url, remoteAddress, forwarded] of [
      ['/', '192.168.1.50', undefined],
      ['/stations/garden', '10.0.0.7', undefined],
      ['/health', '172.30.32.3', undefined],
      ['/v1/stations', '127.0.0.1', SUPERVISOR],
    ] as const) {
      const response = await h.app.inject({
        method: 'GET',
        url,
        remoteAddress,
        headers: { 'x-ingress-path': PREFIX, ...(forwarded && { 'x-forwarded-for': forwarded }) },
      });
      expect(response.statusCode, `${url} from ${remoteAddress}`).toBe(403);
      expect(response.json()).toMatchObject({ status: 'error', message: expect.stringContaining('http.ingressProxy') });
      expect(response.body).not.toContain(PREFIX);
    }
    // Without the header the same address gets the page as before.
    expect((await h.app.inject({ method: 'GET', url: '/', remoteAddress: '192.168.1.50' })).statusCode).toBe(200);
  });

  it('refuses the header from everyone when no ingress proxy is configured', async () => {
    h = await startHttpHarness();
    const response = await h.app.inject({ method: 'GET', url: '/', remoteAddress: SUPERVISOR, headers: { 'x-ingress-path': PREFIX } });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a prefix that is no plain path, even from the proxy', async () => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_INGRESS_PROXY: SUPERVISOR } });
    for (const prefix of ['//evil.example', 'https://evil.example', '/a"><script>x</script>', '/a b', '/a/../b?', '']) {
      const response = await h.app.inject({ method: 'GET', url: '/', remoteAddress: SUPERVISOR, headers: { 'x-ingress-path': prefix } });
      expect(response.statusCode, prefix).toBe(400);
      expect(response.body).not.toContain('evil.example');
    }
  });

  it("under the proxy's prefix the page names its files, links and endpoints under it; without it, as before", async () => {
    h = await startHttpHarness({ env: { MOWABILITY_HTTP_INGRESS_PROXY: SUPERVISOR } });
    const under = await h.app.inject({
      method: 'GET',
      url: '/stations/garden',
      remoteAddress: `::ffff:${SUPERVISOR}`,
      headers: { 'x-ingress-path': `${PREFIX}/` },
    });
    expect(under.statusCode).toBe(200);
    expect(under.headers.vary).toContain('X-Ingress-Path');
    expect(under.body).toContain(`<meta name="mowability-base" content="${PREFIX}">`);
    const urls = [...under.body.matchAll(/(?:src|href)="([^"#]+)"/g)].map((match) => match[1]!);
    expect(urls.length).toBeGreaterThan(8);
    for (const url of urls) expect(url.startsWith(`${PREFIX}/`), url).toBe(true);
    const plain = await h.app.inject({ method: 'GET', url: '/', remoteAddress: SUPERVISOR });
    expect(plain.body).toContain('<meta name="mowability-base" content="">');
    expect(plain.body).toContain('src="/assets/app.js?v=');
    expect(plain.headers.etag).not.toBe(under.headers.etag);
  });
});
