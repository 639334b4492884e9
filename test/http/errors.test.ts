import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calculate } from '../../src/core/index.js';
import { addKey, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { captureLogger } from '../helpers/httpLogCapture.js';

const ENVELOPE_KEYS = ['message', 'mfi', 'status'];

function expectError(response: { statusCode: number; json(): unknown }, statusCode: number, message: string | RegExp): void {
  expect(response.statusCode).toBe(statusCode);
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
  expect(body.status).toBe('error');
  expect(body.mfi).toBeNull();
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

describe('error responses (one envelope for every failure)', () => {
  let h: HttpHarness;
  let headers: Record<string, string>;
  beforeEach(async () => {
    h = await startHttpHarness();
    headers = { authorization: `Bearer ${(await addKey(h)).key}` };
  });
  afterEach(async () => h.close());

  const post = (payload: string, contentType: string) =>
    h.app.inject({ method: 'POST', url: '/v1/calculate', headers: { ...headers, 'content-type': contentType }, payload });

  it('malformed JSON: 400', async () => {
    expectError(await post('{"temperature": 18,', 'application/json'), 400, 'Malformed JSON in the request body.');
  });

  it('empty body with a JSON content type: 400', async () => {
    expectError(await post('', 'application/json'), 400, 'Malformed JSON in the request body.');
  });

  it('JSON with a __proto__ key: 400, nothing polluted', async () => {
    expectError(
      await post('{"__proto__": {"polluted": true}, "temperature": 18}', 'application/json'),
      400,
      'Malformed JSON in the request body.',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([['[18, 0]'], ['"text"'], ['42'], ['null'], ['true']])('JSON body that is not an object (%s): 400', async (payload) => {
    expectError(await post(payload, 'application/json'), 400, 'The request body must be a JSON object or form fields.');
  });

  it.each([['text/plain'], ['application/xml'], ['multipart/form-data; boundary=x'], ['application/octet-stream']])(
    'unsupported content type %s: 415',
    async (contentType) => {
      expectError(
        await post('temperature=18', contentType),
        415,
        /^Unsupported content type\. Use application\/json or application\/x-www-form-urlencoded\.$/,
      );
    },
  );

  it('body over the default limit of 64 KiB: 413', async () => {
    const payload = JSON.stringify({ ...MINIMAL_INPUT, padding: 'x'.repeat(65536) });
    expectError(await post(payload, 'application/json'), 413, 'Request body too large. The limit is 65536 bytes.');
    const form = `temperature=18&precipitation_rate=0&padding=${'x'.repeat(65536)}`;
    expectError(await post(form, 'application/x-www-form-urlencoded'), 413, 'Request body too large. The limit is 65536 bytes.');
  });

  it('body over a configured limit: 413', async () => {
    const small = await startHttpHarness({ env: { MOWABILITY_HTTP_BODY_LIMIT_BYTES: '200' } });
    try {
      const smallKey = (await addKey(small)).key;
      const response = await small.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${smallKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...MINIMAL_INPUT, note: 'y'.repeat(300) }),
      });
      expectError(response, 413, 'Request body too large. The limit is 200 bytes.');
      const fits = await small.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${smallKey}` },
        payload: MINIMAL_INPUT,
      });
      expect(fits.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('unknown path: 404 envelope', async () => {
    expectError(await h.app.inject({ method: 'GET', url: '/v2/calculate' }), 404, 'Not found.');
    expectError(await h.app.inject({ method: 'POST', url: '/' }), 404, 'Not found.');
  });

  it.each([
    ['PUT', '/v1/calculate'],
    ['DELETE', '/v1/calculate'],
    ['PATCH', '/v1/calculate'],
    ['OPTIONS', '/v1/calculate'],
    ['POST', '/health'],
    ['DELETE', '/v1/health'],
  ] as const)('%s %s: 405 "HTTP method not allowed."', async (method, url) => {
    expectError(
      await h.app.inject({ method, url, headers, payload: method === 'OPTIONS' ? undefined : MINIMAL_INPUT }),
      405,
      'HTTP method not allowed.',
    );
  });

  it('rate limit per client: 429 with Retry-After; health is exempt', async () => {
    const limited = await startHttpHarness({ env: { MOWABILITY_RATE_LIMIT_MAX: '3', MOWABILITY_RATE_LIMIT_TIME_WINDOW_MS: '60000' } });
    try {
      const limitedKey = (await addKey(limited)).key;
      const send = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/calculate',
          remoteAddress,
          headers: { authorization: `Bearer ${limitedKey}` },
          payload: MINIMAL_INPUT,
        });
      for (let i = 0; i < 3; i++) expect((await send('192.0.2.10')).statusCode).toBe(200);
      const refused = await send('192.0.2.10');
      expectError(refused, 429, 'Too many requests. Retry after the time given in the Retry-After header.');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await send('192.0.2.11')).statusCode).toBe(200);
      // Failed authentication counts too (no unlimited key guessing).
      for (let i = 0; i < 3; i++) {
        expect(
          (await limited.app.inject({ method: 'POST', url: '/v1/calculate', remoteAddress: '192.0.2.12', payload: MINIMAL_INPUT }))
            .statusCode,
        ).toBe(401);
      }
      expect(
        (await limited.app.inject({ method: 'POST', url: '/v1/calculate', remoteAddress: '192.0.2.12', payload: MINIMAL_INPUT }))
          .statusCode,
      ).toBe(429);
      for (let i = 0; i < 5; i++) {
        expect((await limited.app.inject({ method: 'GET', url: '/health', remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('unexpected failure: 500 with a generic message; the details only in the log', async () => {
    const log = captureLogger();
    const broken = await startHttpHarness({
      logger: log.logger,
      overrides: {
        calculate: () => {
          throw new Error('secret internal detail');
        },
      },
    });
    try {
      const brokenKey = (await addKey(broken)).key;
      const response = await broken.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${brokenKey}` },
        payload: MINIMAL_INPUT,
      });
      expectError(response, 500, 'Internal server error.');
      expect(response.body).not.toContain('secret internal detail');
      expect(log.text()).toContain('secret internal detail');
    } finally {
      await broken.close();
    }
  });

  it('the response schema keeps undeclared fields away from clients', async () => {
    const leaky = await startHttpHarness({
      overrides: {
        calculate: (input, context) => {
          const outcome = calculate(input, context);
          if (outcome.ok) Object.assign(outcome.result, { internal_secret: 'do-not-send' });
          return outcome;
        },
      },
    });
    try {
      const leakyKey = (await addKey(leaky)).key;
      const response = await leaky.app.inject({
        method: 'POST',
        url: '/v1/calculate',
        headers: { authorization: `Bearer ${leakyKey}` },
        payload: MINIMAL_INPUT,
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('do-not-send');
    } finally {
      await leaky.close();
    }
  });
});
