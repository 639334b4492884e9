import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addKey, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { createLogger, REDACTED } from '../../src/util/logger.js';

describe('request logging', () => {
  let h: HttpHarness;
  let log: ReturnType<typeof captureLogger>;
  beforeEach(async () => {
    log = captureLogger('trace');
    h = await startHttpHarness({ logger: log.logger });
  });
  afterEach(async () => h.close());

  it('never writes an API key to the log, however it was sent (even at trace level and on errors)', async () => {
    const getKey = (await addKey(h, 'logged', { allowGet: true })).key;
    const postKey = (await addKey(h, 'logged-post')).key;
    await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: { authorization: `Bearer ${postKey}` }, payload: MINIMAL_INPUT });
    await h.app.inject({ method: 'GET', url: `/v1/calculate?temperature=18&precipitation_rate=0&api_key=${getKey}` });
    await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `temperature=18&precipitation_rate=0&api_key=${postKey}`,
    });
    await h.app.inject({ method: 'GET', url: `/v1/calculate?api_key=${postKey}` }); // 405
    await h.app.inject({ method: 'POST', url: `/v1/calculate?api_key=${getKey}`, headers: { authorization: `Bearer ${postKey}x` } }); // 401
    await h.app.inject({ method: 'GET', url: `/nowhere?api_key=${getKey}` }); // 404
    const text = log.text();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(getKey);
    expect(text).not.toContain(postKey);
    expect(text).not.toContain(getKey.slice(4, 20));
    expect(text).not.toContain(postKey.slice(4, 20));
  });

  it('writes one info line per request with method, path without the query string and status', async () => {
    const key = (await addKey(h, 'lines', { allowGet: true })).key;
    await h.app.inject({ method: 'GET', url: `/v1/calculate?temperature=18&precipitation_rate=0&api_key=${key}` });
    await h.app.inject({ method: 'GET', url: '/health' });
    const requests = log.lines().filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ level: 30, method: 'GET', path: '/v1/calculate', statusCode: 200 });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/health', statusCode: 200 });
    expect(JSON.stringify(requests)).not.toContain('temperature=');
  });

  it('redacts Authorization headers and api_key values in anything logged', async () => {
    const capture = captureLogger('info');
    capture.logger.info(
      { req: { headers: { authorization: 'Bearer mow_secret1' }, query: { api_key: 'mow_secret2' } }, body: { api_key: 'mow_secret3' } },
      'x',
    );
    capture.logger.info({ headers: { authorization: 'Bearer mow_secret4' }, api_key: 'mow_secret5' }, 'y');
    expect(capture.text()).not.toMatch(/mow_secret/);
    expect(capture.text()).toContain(REDACTED);
    expect(createLogger({ level: 'silent' }).level).toBe('silent');
  });
});
