/**
 * The claim token never reaches the access log: not for the claim route's own
 * method, nor for any other method, a trailing slash, another letter case, a
 * percent-encoded token, extra segments, a path that cannot be decoded, or a
 * 404 elsewhere. Each of these paths is 404/405 (no route matched), which the
 * log used to show as requested; a token copied from such a line collected the key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HTTPMethods } from 'fastify';
import { captureLogger } from '../helpers/httpLogCapture.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from './harness.js';

const VALID = {
  name: 'Alice Gardener',
  email: 'alice@example.org',
  intended_use: 'Robot mower schedule in my garden',
  usage: 'private',
  accept_terms: true,
};

describe('access log: claim token redaction', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('keeps the token out of every access line, whatever the method and path shape', async () => {
    const log = captureLogger('info');
    h = await startHttpHarness({
      env: { MOWABILITY_REGISTRATION_ENABLED: 'true', MOWABILITY_RATE_LIMIT_MAX: '0' },
      extend: publicServiceParts({ registrations: true }),
      logger: log.logger,
    });
    const token = (await h.app.inject({ method: 'POST', url: '/v1/registrations', payload: VALID })).json().mfi.registration
      .claim_token as string;
    const secret = token.slice('mowclaim_'.length);
    const encoded = `%6D${token.slice(1)}`;
    const attempts: Array<[HTTPMethods, string]> = [
      ['GET', `/v1/registrations/${token}`],
      ['HEAD', `/v1/registrations/${token}`],
      ...(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const).map((method): [HTTPMethods, string] => [
        method,
        `/v1/registrations/${token}`,
      ]),
      ['GET', `/v1/registrations/${token}/`],
      ['DELETE', `/v1/registrations/${token}/`],
      ['GET', `/V1/REGISTRATIONS/${token}`],
      ['GET', `//v1/registrations/${token}`],
      ['GET', `/v1/registrations/${encoded}/`],
      ['GET', `/v1/registrations/${token}/status?x=1`],
      ['GET', `/v1/claim/${token}`],
      ['POST', `/${token}`],
    ];
    const statuses: number[] = [];
    for (const [method, url] of attempts) statuses.push((await h.app.inject({ method, url })).statusCode);
    // The claim route answers its own shape; every other shape is refused.
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(2).every((status) => status >= 400 && status < 500)).toBe(true);

    const lines = log.lines().filter((line) => line.msg === 'request');
    expect(lines).toHaveLength(attempts.length + 1);
    expect(log.text()).not.toContain(secret);
    expect(lines.slice(1).map((line) => `${String(line.method)} ${String(line.path)}`)).toEqual([
      'GET /v1/registrations/:claim_token',
      'HEAD /v1/registrations/:claim_token',
      'POST /v1/registrations/:claim_token',
      'PUT /v1/registrations/:claim_token',
      'DELETE /v1/registrations/:claim_token',
      'PATCH /v1/registrations/:claim_token',
      'OPTIONS /v1/registrations/:claim_token',
      'GET /v1/registrations/:claim_token/',
      'DELETE /v1/registrations/:claim_token/',
      'GET /V1/REGISTRATIONS/:claim_token',
      'GET //v1/registrations/:claim_token',
      'GET /v1/registrations/:claim_token/',
      'GET /v1/registrations/:claim_token/status',
      'GET /v1/claim/:redacted',
      'POST /:redacted',
    ]);
    // A path the router cannot decode is answered before any hook (no access line), and logs no token either.
    expect((await h.app.inject({ method: 'GET', url: `/v1/registrations/${token}%zz` })).statusCode).toBe(400);
    expect(log.text()).not.toContain(secret);
  });
});
