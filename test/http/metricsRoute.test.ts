import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/http/errors.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { addKey, CHANGE_DEADLINE_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';
import { parsePrometheusText, sampleValue } from '../helpers/promText.js';

const ENVELOPE = (message: string) => ({ status: 'error', mfi: null, message });
const REMOTE = '203.0.113.40';

let h: HttpHarness;
afterEach(async () => h?.close());

function start(mode?: string, env: Record<string, string> = {}) {
  return startHttpHarness({ env: { ...(mode ? { MOWABILITY_HTTP_METRICS: mode } : {}), ...env }, overrides: { metrics: createMetrics() } });
}

describe('GET /metrics', () => {
  it('by default answers loopback clients only, in the Prometheus text format', async () => {
    h = await start();
    expect(h.config.http.metrics).toBe('loopback');
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.5']) {
      const response = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(response.statusCode, remoteAddress).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(() => parsePrometheusText(response.body)).not.toThrow();
    }
    const remote = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual(ENVELOPE(MESSAGES.accessDenied));
  });

  it('behind a trusted proxy, judges the forwarded client, not the proxy', async () => {
    h = await start('loopback', { MOWABILITY_TRUST_PROXY: '127.0.0.1' });
    const forwarded = await h.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': REMOTE },
    });
    expect(forwarded.statusCode).toBe(403);
  });

  it('counts answered requests by route and status and times calculations', async () => {
    h = await start();
    const { key } = await addKey(h);
    const auth = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 3; i++) await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: auth, payload: MINIMAL_INPUT });
    await h.app.inject({ method: 'POST', url: '/v1/calculate', payload: MINIMAL_INPUT });
    await h.app.inject({ method: 'GET', url: '/no/such/path' });
    await h.app.inject({ method: 'GET', url: '/health' });
    const families = parsePrometheusText((await h.app.inject({ method: 'GET', url: '/metrics' })).body);
    const requests = 'mowability_http_requests_total';
    expect(sampleValue(families, requests, { route: '/v1/calculate', method: 'POST', status: '200' })).toBe(3);
    expect(sampleValue(families, requests, { route: '/v1/calculate', method: 'POST', status: '401' })).toBe(1);
    expect(sampleValue(families, requests, { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(sampleValue(families, requests, { route: '/health', method: 'GET', status: '200' })).toBe(1);
    expect(sampleValue(families, 'mowability_calculate_duration_seconds_count', { status: '200' })).toBe(3);
  });

  it('with http.metrics "key", needs an enabled API key in the Bearer header', async () => {
    h = await start('key');
    const { id, key } = await addKey(h);
    const from = { remoteAddress: REMOTE };
    expect((await h.app.inject({ method: 'GET', url: '/metrics', ...from })).json()).toEqual(ENVELOPE(MESSAGES.noApiKey));
    const queryKey = await h.app.inject({ method: 'GET', url: `/metrics?api_key=${key}`, ...from });
    expect(queryKey.statusCode).toBe(401);
    const wrong = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer mow_nope' }, ...from });
    expect(wrong.json()).toEqual(ENVELOPE(MESSAGES.invalidApiKey));
    // A POST-only calculation key is enough: the GET permission is about /v1/calculate.
    expect((await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${key}` }, ...from })).statusCode).toBe(
      200,
    );
    await h.store.setKeyDisabled(id, true);
    await waitFor(() => h.access.lookupKey(key)?.disabled === true, CHANGE_DEADLINE_MS);
    const disabled = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${key}` }, ...from });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toEqual(ENVELOPE(MESSAGES.apiKeyDisabled));
  });

  it('with http.metrics "open", answers anyone who is not blocked, within the rate limit', async () => {
    h = await start('open', { MOWABILITY_RATE_LIMIT_MAX: '2' });
    expect((await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE })).statusCode).toBe(200);
    const limited = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: REMOTE });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(ENVELOPE(MESSAGES.tooManyRequests));
    await h.store.blockAddress('198.51.100.41');
    await waitFor(() => h.access.isBlocked('198.51.100.41'), CHANGE_DEADLINE_MS);
    const blocked = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.41' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual(ENVELOPE(MESSAGES.accessDenied));
  });

  it('with http.metrics "off", there is no route (404) even from loopback', async () => {
    h = await start('off');
    const response = await h.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(ENVELOPE(MESSAGES.notFound));
  });

  it('is not part of the OpenAPI document', async () => {
    h = await start('open');
    const document = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });
});
