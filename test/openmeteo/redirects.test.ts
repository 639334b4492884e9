/**
 * Redirects of the forecast provider: followed on the configured host, refused to any other. Two
 * fake Open-Meteo servers on different loopback hosts (127.0.0.1 and 127.0.0.2): the configured
 * one answers 302 to the other, which would serve a valid forecast. Its answer must never be used,
 * and the reason must say what was refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenMeteoClient } from '../../src/openmeteo/openMeteoClient.js';
import { MAX_REDIRECTS, redirectTarget } from '../../src/openmeteo/redirects.js';
import { FakeOpenMeteo } from '../forecast/fakeOpenMeteo.js';

const berlin = { latitude: 52.52, longitude: 13.41, elevation: 38 };

describe('redirectTarget', () => {
  it('is undefined for an answer that is no redirect', () => {
    expect(redirectTarget('http://a.example/v1/forecast', 200, null)).toBeUndefined();
    expect(redirectTarget('http://a.example/v1/forecast', 304, '/elsewhere')).toBeUndefined();
  });

  it('follows a moved path and an https upgrade on the same host', () => {
    expect(redirectTarget('http://a.example:8080/v1/forecast?x=1', 301, '/v2/forecast?x=1')).toEqual({
      url: 'http://a.example:8080/v2/forecast?x=1',
    });
    expect(redirectTarget('http://a.example/v1/forecast', 308, 'https://a.example/v1/forecast')).toEqual({
      url: 'https://a.example/v1/forecast',
    });
  });

  it.each([
    ['http://a.example/v1/forecast', 302, 'http://b.example/v1/forecast', 'redirect to another host (b.example) refused'],
    ['http://127.0.0.1:1/v1/forecast', 307, 'http://127.0.0.2:1/v1/forecast', 'redirect to another host (127.0.0.2:1) refused'],
    ['https://a.example/v1/forecast', 301, 'http://a.example/v1/forecast', 'redirect from https to http refused'],
    ['http://a.example/v1/forecast', 302, 'file:///etc/passwd', 'redirect to a file address refused'],
    ['http://a.example/v1/forecast', 302, null, 'redirect without a usable Location'],
    ['http://a.example/v1/forecast', 302, 'http://[bad', 'redirect without a usable Location'],
  ])('refuses %s → %i %s', (from, status, location, reason) => {
    const decision = redirectTarget(from, status, location);
    expect(decision).toMatchObject({ refused: expect.stringContaining(reason) });
  });
});

describe('OpenMeteoClient redirects', () => {
  let configured: FakeOpenMeteo;
  let other: FakeOpenMeteo;
  const client = () =>
    new OpenMeteoClient({
      baseUrl: configured.baseUrl,
      timeoutMs: 5000,
      retries: 2,
      backoffMs: 10,
      userAgent: 'mowability/test',
      sleep: async () => undefined,
    });

  beforeEach(async () => {
    [configured, other] = await Promise.all([FakeOpenMeteo.start('127.0.0.1'), FakeOpenMeteo.start('127.0.0.2')]);
    other.fallback = { kind: 'fixture', name: 'afternoonThunderstorm' };
  });
  afterEach(async () => {
    await Promise.all([configured.close(), other.close()]);
  });

  it('refuses a 302 to another host: that host is never asked, the reason says why, and it is not retried', async () => {
    configured.fallback = { kind: 'redirect', location: `${other.baseUrl}/v1/forecast` };
    const outcome = await client().fetchForecast(berlin);
    expect(outcome).toEqual({
      kind: 'error',
      reason: `HTTP 302 redirect to another host (${new URL(other.baseUrl).host}) refused; set forecast.openMeteoUrl to the server that answers`,
      problem: 'redirectRefused',
    });
    expect(other.requests).toHaveLength(0);
    expect(configured.requests).toHaveLength(1);
  });

  it('refuses a redirect to another host after a same-host hop too', async () => {
    configured.script.push({ kind: 'redirect', location: '/moved/v1/forecast' });
    configured.fallback = { kind: 'redirect', status: 307, location: `${other.baseUrl}/v1/forecast` };
    const outcome = await client().fetchForecast(berlin);
    expect(outcome).toMatchObject({
      kind: 'error',
      reason: expect.stringContaining('HTTP 307 redirect to another host'),
      problem: 'redirectRefused',
    });
    expect(configured.requests.map((request) => request.url.pathname)).toEqual(['/v1/forecast', '/moved/v1/forecast']);
    expect(other.requests).toHaveLength(0);
  });

  it('follows a redirect on the same host and uses that answer', async () => {
    configured.script.push({ kind: 'redirect', status: 301, location: '/moved/v1/forecast' });
    configured.fallback = { kind: 'fixture', name: 'dryDay' };
    const outcome = await client().fetchForecast(berlin);
    expect(outcome.kind).toBe('ok');
    expect(configured.requests[1]!.url.pathname).toBe('/moved/v1/forecast');
    // The query (the station's location) is the redirect's, as sent.
    expect(configured.requests[1]!.url.search).toBe('');
  });

  it('stops a redirect loop on the same host', async () => {
    configured.fallback = { kind: 'redirect', location: '/v1/forecast' };
    const outcome = await client().fetchForecast(berlin);
    expect(outcome).toEqual({
      kind: 'error',
      reason: `more than ${MAX_REDIRECTS} redirects; not followed further`,
      problem: 'redirectRefused',
    });
    expect(configured.requests).toHaveLength(MAX_REDIRECTS + 1);
  });
});
