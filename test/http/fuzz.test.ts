import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_NAMES } from '../../src/core/index.js';
import { addKey, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from '../publicService/harness.js';

const ALLOWED_STATUS = new Set([200, 400, 401, 405, 413, 415]);

const nastyValue = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER, 0, -0, 18, 500, 501),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '0x10', ' 18 ', '', '18abc', '١٨'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

const fieldName = fc.oneof(
  fc.constantFrom(...FIELD_NAMES),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'api_key', 'season'),
  fc.string({ maxLength: 12 }),
);

const jsonObjectBody = fc.dictionary(fieldName, nastyValue, { maxKeys: 8 }).map((value) => JSON.stringify(value));

const nestedBody = fc
  .letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      nastyValue,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fieldName, tie('node'), { maxKeys: 3 }),
    ),
  }))
  .node.map((value) => JSON.stringify(value) ?? 'null');

const rawBody = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{', '[]', '{"temperature":18,"temperature":"x"}', ''),
);

const formBody = fc
  .array(fc.tuple(fieldName, fc.oneof(fc.string({ maxLength: 20 }), fc.double().map(String))), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=abc',
  'application/JSON',
  '',
);

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
