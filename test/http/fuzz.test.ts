import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { contentType, formBody, jsonObjectBody, nestedBody, rawBody } from '../helpers/fuzzBodies.js';

const ALLOWED_STATUS = new Set([200, 400, 401, 405, 413, 415]);

const request = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET'),
  body: fc.oneof(jsonObjectBody, nestedBody, rawBody, formBody),
  contentType,
  query: formBody,
  auth: fc.constantFrom('valid', 'none', 'wrong'),
});

describe('HTTP fuzz: generated requests never produce a 5xx or a broken envelope', () => {
  let h: HttpHarness;
  let key: string;
  beforeAll(async () => {
    h = await startHttpHarness({ env: { MOWABILITY_RATE_LIMIT_MAX: '0' } });
    key = (await addKey(h, 'fuzz', { allowGet: true })).key;
  });
  afterAll(async () => h.close());

  it('answers thousands of generated requests with a 2xx/4xx JSON envelope', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const headers: Record<string, string> = {};
        if (generated.contentType) headers['content-type'] = generated.contentType;
        if (generated.auth === 'valid') headers.authorization = `Bearer ${key}`;
        if (generated.auth === 'wrong') headers.authorization = `Bearer ${key.slice(0, -1)}`;
        const response = await h.app.inject({
          method: generated.method,
          url: `/v1/calculate?${generated.query}`,
          headers,
          ...(generated.method === 'POST' ? { payload: generated.body } : {}),
        });
        expect(ALLOWED_STATUS.has(response.statusCode), `${response.statusCode} ${response.body}`).toBe(true);
        const body = response.json() as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(['message', 'mfi', 'status']);
        if (response.statusCode === 200) {
          expect(body.status).toBe('ok');
          expect(body.message).toBe('');
          expect(typeof (body.mfi as Record<string, unknown>).index_score).toBe('number');
        } else {
          expect(body.status).toBe('error');
          expect(body.mfi).toBeNull();
          expect(typeof body.message === 'string' && body.message.length > 0).toBe(true);
        }
      }),
      { numRuns: 4000 },
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  }, 60_000);
});
