import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FIELD_SPECS } from '../../src/core/index.js';
import { MESSAGES } from '../../src/http/errors.js';
import { addKey, CHANGE_DEADLINE_MS, MINIMAL_INPUT, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { waitFor } from '../helpers/httpTempDir.js';

type Json = Record<string, any>;
const ENVELOPE = (message: string) => ({ status: 'error', mfi: null, message });

let h: HttpHarness;
afterEach(async () => h?.close());

async function fetchDocument(harness: HttpHarness): Promise<Json> {
  const response = await harness.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

/** The messages documented for one status of one operation (from its examples). */
function documentedMessages(operation: Json, status: number): string[] {
  const media = operation.responses[String(status)]?.content?.['application/json'];
  const examples = media?.examples ? Object.values(media.examples).map((e: any) => e.value) : [media?.example];
  return examples.filter(Boolean).map((body: Json) => body.message);
}

function mediaSchema(operation: Json, status: number): Json {
  return operation.responses[String(status)].content['application/json'].schema;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, without an API key', async () => {
    h = await startHttpHarness();
    const document = await fetchDocument(h);
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/health',
      '/openapi.json',
      '/v1/calculate',
      '/v1/health',
      '/v1/lawns/{lawnId}/plan.ics',
      '/v1/stations',
      '/v1/stations/{id}',
      '/v1/stations/{id}/history',
    ]);
  });

  it('documents every input field with its range, for GET as query parameters and for POST as JSON and form bodies', async () => {
    h = await startHttpHarness();
    const { get, post } = (await fetchDocument(h)).paths['/v1/calculate'];
    const json = post.requestBody.content['application/json'].schema;
    const form = post.requestBody.content['application/x-www-form-urlencoded'].schema;
    for (const spec of FIELD_SPECS) {
      const parameter = get.parameters.find((p: Json) => p.name === spec.name);
      expect(parameter, spec.name).toMatchObject({
        in: 'query',
        required: spec.required,
        schema: { minimum: spec.min, maximum: spec.max },
      });
      expect(json.properties[spec.name], spec.name).toMatchObject({ type: 'number', minimum: spec.min, maximum: spec.max });
      expect(json.properties[spec.name].description).toContain(spec.unit);
      expect(form.properties[spec.name], spec.name).toBeDefined();
    }
    expect(json.required).toEqual(['temperature', 'precipitation_rate']);
    expect(form.properties.api_key).toBeDefined();
  });

  it('describes the API key as header (always), query parameter (GET) and form field (POST)', async () => {
    h = await startHttpHarness();
    const document = await fetchDocument(h);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.apiKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'api_key' });
    const calculate = document.paths['/v1/calculate'];
    expect(calculate.get.security).toEqual([{ bearerAuth: [] }, { apiKeyQuery: [] }]);
    expect(calculate.post.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/health'].get.security).toBeUndefined();
    expect(document.security).toEqual([]);
  });

  it('lists every error of the contract with its status and exact message', async () => {
    h = await startHttpHarness();
    const document = await fetchDocument(h);
    for (const method of ['get', 'post']) {
      const operation = document.paths['/v1/calculate'][method];
      expect(documentedMessages(operation, 401)).toEqual([MESSAGES.noApiKey, MESSAGES.invalidApiKey]);
      expect(documentedMessages(operation, 403)).toEqual([MESSAGES.apiKeyDisabled, MESSAGES.accessDenied]);
      expect(documentedMessages(operation, 405)).toEqual([MESSAGES.methodNotAllowed]);
      expect(documentedMessages(operation, 429)).toEqual([MESSAGES.tooManyRequests]);
      expect(documentedMessages(operation, 503)).toContain(MESSAGES.maintenance);
      expect(documentedMessages(operation, 413)).toEqual([MESSAGES.bodyTooLarge(h.config.http.bodyLimitBytes)]);
    }
    const health = document.paths['/health'].get;
    expect(documentedMessages(health, 503)).toEqual([MESSAGES.maintenance, MESSAGES.systemChecksFailed, MESSAGES.shuttingDown]);
  });

  it('documents the responses the service really sends (a real 200, 401 and health answer validate against the schemas)', async () => {
    h = await startHttpHarness();
    const document = await fetchDocument(h);
    const ajv = new Ajv2020({ strict: false });
    const { key } = await addKey(h);
    const post = document.paths['/v1/calculate'].post;
    const ok = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: `Bearer ${key}` },
      payload: { ...MINIMAL_INPUT, rain_1h: 0.2 },
    });
    const denied = await h.app.inject({ method: 'POST', url: '/v1/calculate', payload: MINIMAL_INPUT });
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    const cases: Array<[Json, unknown]> = [
      [mediaSchema(post, 200), ok.json()],
      [mediaSchema(post, 401), denied.json()],
      [mediaSchema(document.paths['/health'].get, 200), health.json()],
      // The documented examples match their own schemas too.
      [mediaSchema(post, 200), post.responses['200'].content['application/json'].example],
      [mediaSchema(document.paths['/health'].get, 200), document.paths['/health'].get.responses['200'].content['application/json'].example],
    ];
    for (const [schema, body] of cases) {
      const validate = ajv.compile(schema);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('goes through the block list, the rate limit and the error envelope like every route', async () => {
    h = await startHttpHarness({ env: { MOWABILITY_RATE_LIMIT_MAX: '2' } });
    await h.store.blockAddress('203.0.113.9');
    await waitFor(() => h.access.isBlocked('203.0.113.9'), CHANGE_DEADLINE_MS);
    const blocked = await h.app.inject({ method: 'GET', url: '/openapi.json', remoteAddress: '203.0.113.9' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual(ENVELOPE(MESSAGES.accessDenied));

    const from = { remoteAddress: '198.51.100.30' };
    expect((await h.app.inject({ method: 'GET', url: '/openapi.json', ...from })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/openapi.json', ...from })).statusCode).toBe(200);
    const limited = await h.app.inject({ method: 'GET', url: '/openapi.json', ...from });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(ENVELOPE(MESSAGES.tooManyRequests));

    const wrongMethod = await h.app.inject({ method: 'POST', url: '/openapi.json', payload: {}, remoteAddress: '198.51.100.31' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json()).toEqual(ENVELOPE(MESSAGES.methodNotAllowed));
  });
});
