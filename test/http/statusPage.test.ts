/**
 * The status page's HTTP side without a browser: the shell's security and
 * cache headers, hashed asset URLs with ETags, compression, no inline code,
 * and the endpoints in /openapi.json.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { apiKeys } from '../../src/http/auth.js';
import { stationsPlugin } from '../../src/http/stationsRoute.js';
import { CONTENT_SECURITY_POLICY, statusPagePlugin } from '../../src/http/statusPage.js';
import { NO_STATIONS } from '../../src/http/stationsView.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const assetUrls = (html: string): string[] => [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);

describe('status page shell and assets', () => {
  it('serves the shell with a strict CSP, no inline scripts or styles, revalidated by its ETag', async () => {
    harness = await startHttpHarness();
    for (const url of ['/', '/stations/garden']) {
      const response = await harness.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(response.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(response.body).not.toContain('{{');
      const again = await harness.app.inject({ method: 'GET', url, headers: { 'if-none-match': response.headers.etag as string } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe/);
  });

  it('serves every asset the shell names under a content hash, cached for a year, 304 on its ETag; nothing else', async () => {
    harness = await startHttpHarness();
    const html = (await harness.app.inject({ method: 'GET', url: '/' })).body;
    const urls = assetUrls(html);
    expect(urls.length).toBe(10);
    for (const url of urls) {
      expect(url).toMatch(/\?v=[\w-]{12}$/);
      const response = await harness.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.etag).toMatch(/^"[\w-]{22}"$/);
      expect(url.slice(url.indexOf('?v=') + 3)).toBe((response.headers.etag as string).slice(1, 13));
      const revalidated = await harness.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': `W/${response.headers.etag as string}` },
      });
      expect(revalidated.statusCode).toBe(304);
    }
    for (const url of ['/assets/', '/assets/../package.json', '/assets/index.html', '/assets/vendor/uPlot.cjs.js', '/index.html']) {
      const response = await harness.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ status: 'error', mfi: null, message: 'Not found.' });
    }
  });

  it('compresses with brotli or gzip as the client accepts', async () => {
    harness = await startHttpHarness();
    const html = (await harness.app.inject({ method: 'GET', url: '/' })).body;
    const script = assetUrls(html).find((url) => url.includes('uPlot.iife'))!;
    const plain = await harness.app.inject({ method: 'GET', url: script });
    const br = await harness.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const style = assetUrls(html).find((url) => url.includes('app.css'))!;
    const gzip = await harness.app.inject({ method: 'GET', url: style, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('prefers-color-scheme: dark');
  });

  it('key: the shell (which holds no data) is served and tells the page to ask for a key', async () => {
    harness = await startHttpHarness({ env: { MOWABILITY_HTTP_STATUS_PAGE: 'key' } });
    const response = await harness.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<meta name="mowability-access" content="key">');
    expect((await harness.app.inject({ method: 'GET', url: '/v1/stations' })).statusCode).toBe(401);
  });

  it('documents the endpoints in /openapi.json, not the page', async () => {
    harness = await startHttpHarness();
    const document = (await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/stations', '/v1/stations/{id}', '/v1/stations/{id}/history']));
    expect(Object.keys(document.paths).some((path) => path === '/' || path.startsWith('/assets') || path.startsWith('/stations'))).toBe(
      false,
    );
  });
});

describe('status page on a broken install', () => {
  it('turns only the page off when its files cannot be read: the daemon starts, /v1/stations answers, a warning says why', async () => {
    const log = captureLogger('warn');
    const logger: FastifyBaseLogger = log.logger;
    const app = Fastify({ loggerInstance: logger });
    try {
      const clock = { now: () => Date.parse('2026-06-15T12:00:00Z') };
      await app.register(statusPagePlugin, {
        mode: 'open',
        loadPage: () => {
          throw Object.assign(new Error("ENOENT: no such file or directory, open 'public/index.html'"), { code: 'ENOENT' });
        },
      });
      // The /v1 scope as buildApp makes it: the key hook, then the stations' JSON (a plugin of its own).
      await app.register(
        async (v1) => {
          await v1.register(apiKeys, { access: { lookupKey: () => undefined, isBlocked: () => false, maintenance: false }, clock });
          await v1.register(stationsPlugin, { mode: 'open', view: NO_STATIONS, clock });
        },
        { prefix: '/v1' },
      );
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
      const stations = await app.inject({ method: 'GET', url: '/v1/stations' });
      expect(stations.statusCode).toBe(200);
      expect(stations.json()).toMatchObject({ status: 'ok', message: '' });
      expect(log.lines()).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(/the status page is off: its files in .* are missing or unreadable \(reinstall the package\)/),
        }),
      ]);
    } finally {
      await app.close();
    }
  });
});
