/**
 * The registration routes under generated requests (fast-check): bodies, content types and claim
 * tokens of every shape are answered 2xx/4xx with the error envelope, never a 5xx. The home routes'
 * fuzz is test/http/fuzz.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentType, formBody, jsonObjectBody, nastyValue, rawBody } from '../helpers/fuzzBodies.js';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from './harness.js';

const registrationRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'GET'),
  body: fc.oneof(
    jsonObjectBody,
    rawBody,
    formBody,
    fc
      .record({ name: nastyValue, email: nastyValue, intended_use: nastyValue, usage: nastyValue, accept_terms: nastyValue })
      .map((value) => JSON.stringify(value)),
  ),
  contentType,
  token: fc.oneof(
    fc.string({ maxLength: 300 }).map(encodeURIComponent),
    fc.constantFrom('mowclaim_x', '%00', '..%2F..%2Fetc', 'a'.repeat(500)),
  ),
});

describe('HTTP fuzz: registration routes never produce a 5xx or a broken envelope', () => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = await startHttpHarness({
      env: {
        MOWABILITY_RATE_LIMIT_MAX: '0',
        MOWABILITY_REGISTRATION_ENABLED: 'true',
        MOWABILITY_REGISTRATION_PER_ADDRESS_PER_HOUR: '100000',
        MOWABILITY_REGISTRATION_MAX_PENDING_PER_ADDRESS: '99999',
        MOWABILITY_REGISTRATION_MAX_PENDING_PER_NETWORK: '99999',
        MOWABILITY_REGISTRATION_MAX_PENDING: '100000',
      },
      extend: publicServiceParts({ registrations: true }),
    });
  });
  afterAll(async () => h.close());

  it('answers generated registrations and claims with 2xx/4xx envelopes', async () => {
    await fc.assert(
      fc.asyncProperty(registrationRequest, async (generated) => {
        const response = await h.app.inject({
          method: generated.method,
          url: generated.method === 'POST' ? '/v1/registrations' : `/v1/registrations/${generated.token}`,
          headers: generated.contentType ? { 'content-type': generated.contentType } : {},
          ...(generated.method === 'POST' ? { payload: generated.body } : {}),
        });
        expect(response.statusCode < 500, `${response.statusCode} ${response.body}`).toBe(true);
        const body = response.json() as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(['message', 'mfi', 'status']);
        expect(body.status).toBe(response.statusCode < 300 ? 'ok' : 'error');
      }),
      { numRuns: 1500 },
    );
  }, 60_000);
});
