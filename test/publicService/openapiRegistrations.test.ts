/**
 * The OpenAPI document with the public service's registration routes plugged in: they appear with
 * their request schema and the document stays valid. The home document without them is checked in
 * test/http/openapi.test.ts.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { publicServiceParts } from './harness.js';

type Json = Record<string, any>;

let h: HttpHarness;
afterEach(async () => h?.close());

async function fetchDocument(harness: HttpHarness): Promise<Json> {
  const response = await harness.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

describe('GET /openapi.json with the public service', () => {
  it('includes the registration routes, still valid, when registration is on', async () => {
    h = await startHttpHarness({ env: { MOWABILITY_REGISTRATION_ENABLED: 'true' }, extend: publicServiceParts({ registrations: true }) });
    const document = await fetchDocument(h);
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/registrations', '/v1/registrations/{claim_token}']));
    expect(document.paths['/v1/registrations'].post.requestBody.content['application/json'].schema.required).toEqual([
      'name',
      'email',
      'intended_use',
      'usage',
      'accept_terms',
    ]);
  });
});
