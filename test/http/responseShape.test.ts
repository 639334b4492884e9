/**
 * POST /v1/calculate writes the core's result in the core's own key order
 * (src/http/orderedSerializer.ts: declared fields only, types not coerced).
 * These tests prove that the core emits only the fields the response schema
 * declares, of the declared types, in the declared (documented) order, for
 * any input, context and failing check, so the serialiser never has to drop
 * or coerce anything; and that the HTTP body is byte for byte
 * JSON.stringify of the envelope.
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { calculateWith } from '../../src/core/calculate.js';
import { CHECK_REGISTRY } from '../../src/core/checks/registry.js';
import type { CheckDefinition } from '../../src/core/checks/types.js';
import { FIELD_SPECS, REQUIRED_FIELDS, type CalculationContext } from '../../src/core/index.js';
import { calculateResponses, calculationResultSchema, errorEnvelopeSchema } from '../../src/http/schemas.js';
import { addKey, FIXED_NOW_MS, startHttpHarness, type HttpHarness } from '../helpers/httpApp.js';
import { schemaViolations } from '../helpers/schemaConformance.js';

const junk = fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, null, true, '', 'abc', '12,5', -1e9, 1e9, [], {});
const anyValue = (min: number, max: number) =>
  fc.oneof({ weight: 4, arbitrary: fc.double({ min, max, noNaN: true }) }, { weight: 1, arbitrary: junk });

const anyInput = fc.record<Record<string, unknown>>(
  {
    ...Object.fromEntries(FIELD_SPECS.map((spec) => [spec.name, anyValue(spec.min, spec.max)])),
    minutes_since_irrigation: anyValue(-10, 20000),
  },
  { requiredKeys: [...REQUIRED_FIELDS] as string[] },
);

const anyContext: fc.Arbitrary<CalculationContext> = fc.record({
  nowMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  timeZone: fc.constantFrom('UTC', 'Europe/Berlin', 'Australia/Lord_Howe', 'Invalid/Zone'),
  hemisphere: fc.constantFrom('north' as const, 'south' as const),
  forcedSeason: fc.option(fc.constantFrom('spring' as const, 'winter' as const), { nil: undefined }),
  lawn: fc.option(
    fc.record({ soilType: fc.constantFrom('sand' as const, 'clay' as const), turfType: fc.constantFrom('warm_season' as const) }),
    {
      nil: undefined,
    },
  ),
});

/** The built-in checks, or the same with one of them throwing (calculation_error, skipped_reason). */
const anyRegistry: fc.Arbitrary<readonly CheckDefinition[]> = fc
  .option(fc.constantFrom(...CHECK_REGISTRY.map((check) => check.name)), { nil: undefined })
  .map((failing) =>
    CHECK_REGISTRY.map((check) =>
      check.name === failing
        ? {
            ...check,
            evaluate() {
              throw new RangeError('boom');
            },
          }
        : check,
    ),
  );

/** What the route sends: the envelope through JSON. */
const emitted = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the core emits exactly the declared response fields, in the declared order', () => {
  it('the conformance check itself finds an undeclared field, a wrong order, a wrong type and a missing field', () => {
    const good = { status: 'error', mfi: null, message: 'x' };
    expect(schemaViolations(good, errorEnvelopeSchema)).toEqual([]);
    expect(schemaViolations({ ...good, secret: 1 }, errorEnvelopeSchema)).toEqual(['$: secret is not declared']);
    expect(schemaViolations({ mfi: null, status: 'error', message: 'x' }, errorEnvelopeSchema)[0]).toMatch(/not in the declared order/);
    expect(schemaViolations({ ...good, mfi: 0 }, errorEnvelopeSchema)).toEqual(['$.mfi: integer is not null']);
    expect(schemaViolations({ status: 'error', mfi: null }, errorEnvelopeSchema)).toEqual(['$: required message is missing']);
    expect(schemaViolations({ score_basis: { checks_used: 1.5 } }, calculationResultSchema)).toContain(
      '$.score_basis.checks_used: number is not integer',
    );
  });

  it('for any input, context and failing check, the whole 200 envelope conforms', () => {
    fc.assert(
      fc.property(anyInput, anyContext, anyRegistry, (input, context, registry) => {
        const outcome = calculateWith(registry, input, context);
        if (!outcome.ok) return;
        const envelope = emitted({ status: 'ok', mfi: outcome.result, message: '' });
        expect(schemaViolations(envelope, calculateResponses[200])).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('POST /v1/calculate writes the core result byte for byte', () => {
  let h: HttpHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('as JSON.stringify of the envelope, UTF-8, with a JSON content type', async () => {
    h = await startHttpHarness();
    const { key } = await addKey(h, 'bytes');
    const input = { temperature: 14, precipitation_rate: 0, humidity: 97, dew_point: 13.5, wind_speed: 2, rain_1h: 0.4, rain_24h: 6 };
    const context: CalculationContext = {
      nowMs: FIXED_NOW_MS,
      timeZone: h.config.timezone,
      hemisphere: h.config.hemisphere,
      lawn: { soilType: h.config.lawn.soilType, mowerClass: h.config.lawn.mowerClass },
    };
    const outcome = calculateWith(CHECK_REGISTRY, input, context);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const expected = JSON.stringify({ status: 'ok', mfi: outcome.result, message: '' });
    // The German texts carry non-ASCII characters (– and °), so the bytes prove the UTF-8 encoding too.
    expect(expected).toMatch(/[–°]/);

    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: `Bearer ${key}` },
      payload: input,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(expected));
  });

  it('the same bytes and Content-Length over a real socket as through inject (the two-byte text is encoded while it is written)', async () => {
    h = await startHttpHarness();
    const { key } = await addKey(h, 'socket');
    const input = { temperature: 14, precipitation_rate: 0, humidity: 97, dew_point: 13.5, wind_speed: 2, rain_1h: 0.4, rain_24h: 6 };
    const injected = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: `Bearer ${key}` },
      payload: input,
    });
    expect(injected.body).toMatch(/[–°]/);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/v1/calculate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    // The harness's clock is fixed: the same answer, byte for byte.
    expect(body.equals(injected.rawPayload)).toBe(true);
  });

  it('error envelopes keep their exact bytes', async () => {
    h = await startHttpHarness();
    const unknownKey = await h.app.inject({
      method: 'POST',
      url: '/v1/calculate',
      headers: { authorization: 'Bearer mow_nobody' },
      payload: {},
    });
    expect(unknownKey.statusCode).toBe(401);
    expect(unknownKey.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(unknownKey.body).toBe('{"status":"error","mfi":null,"message":"Invalid API key."}');
    const { key } = await addKey(h, 'bytes');
    const missing = await h.app.inject({ method: 'POST', url: '/v1/calculate', headers: { authorization: `Bearer ${key}` }, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toBe(
      '{"status":"error","mfi":null,"message":"Missing or invalid required field(s): temperature, precipitation_rate."}',
    );
    const notFound = await h.app.inject({ method: 'GET', url: '/nowhere' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(notFound.body).toBe('{"status":"error","mfi":null,"message":"Not found."}');
  });
});
