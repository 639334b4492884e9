/**
 * Generated hostile HTTP requests for the robustness suite: content types,
 * malformed and deeply nested JSON, prototype keys, wrong value types, huge
 * and tiny numbers, missing and extra fields, odd methods, paths and auth
 * headers, oversized bodies. Plus the envelope check every response must pass.
 */
import fc from 'fast-check';
import { FIELD_SPECS } from '../../src/core/index.js';

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What the generator meant to produce, for failure messages and coverage counts. */
  kind: string;
}

const FIELD_NAMES = FIELD_SPECS.map((spec) => spec.name);

/** Numbers a client might send: in range, out of range, extreme, special. */
const numberValue: fc.Arbitrary<number> = fc.oneof(
  fc.double({ min: -100, max: 3000, noNaN: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, -5e-324, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 1e-12, 99999, 100000),
);

/** Raw JSON text for a field value: numbers and every wrong type. */
const jsonValueText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: numberValue.map((n) => JSON.stringify(n)), weight: 6 },
  {
    arbitrary: fc.constantFrom('1e309', '-1e309', '123456789012345678901234567890', '0.0000000000000000000000001', '1E5', '-0.0'),
    weight: 2,
  },
  { arbitrary: fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)), weight: 1 },
  { arbitrary: fc.constantFrom('"12.5"', '""', '"NaN"', '"Infinity"', '"-Infinity"', '" 7 "', '"0x1A"', '"1e3"'), weight: 2 },
  { arbitrary: fc.constantFrom('true', 'false', 'null', '[]', '{}', '[1,2]', '{"value":1}', '[[[]]]'), weight: 2 },
);

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const fieldName: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 8 },
  { arbitrary: fc.constantFrom('api_key', 'season', 'Temperature', 'temperature ', 'rain_48h', ''), weight: 1 },
  { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 1 },
);

/** A JSON object as text, built by hand so __proto__ and duplicate keys survive. */
const jsonObjectText: fc.Arbitrary<string> = fc
  .record({
    // Mostly both required fields, so that many requests get past validation and exercise the calculation.
    required: fc.oneof(
      { arbitrary: fc.constant(['temperature', 'precipitation_rate']), weight: 6 },
      { arbitrary: fc.constantFrom(['temperature'], ['precipitation_rate'], []), weight: 1 },
    ),
    fields: fc.array(fc.tuple(fieldName, jsonValueText), { maxLength: 24 }),
    prototypeKey: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 5 },
      {
        arbitrary: fc.tuple(
          fc.constantFrom(...PROTOTYPE_KEYS),
          fc.constantFrom('{"polluted":true}', '{"prototype":{"polluted":true}}', '1', '"x"'),
        ),
        weight: 1,
      },
    ),
  })
  .map(({ required, fields, prototypeKey }) => {
    const entries: string[] = required.map((name) => `${JSON.stringify(name)}:${name === 'temperature' ? '18.5' : '0'}`);
    for (const [name, value] of fields) entries.push(`${JSON.stringify(name)}:${value}`);
    if (prototypeKey) entries.splice(entries.length > 0 ? 1 : 0, 0, `${JSON.stringify(prototypeKey[0])}:${prototypeKey[1]}`);
    return `{${entries.join(',')}}`;
  });

const malformedJson: fc.Arbitrary<string> = fc.oneof(
  jsonObjectText.chain((text) => fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut))),
  fc.constantFrom(
    '{"temperature":}',
    '{"temperature":18,}',
    "{'temperature':18}",
    '{"temperature":NaN,"precipitation_rate":0}',
    '{"temperature":Infinity,"precipitation_rate":0}',
    '\uFEFF{"temperature":18,"precipitation_rate":0}',
    '{"temperature":18 "precipitation_rate":0}',
    '}{',
    'null',
    '[]',
    '[{"temperature":18,"precipitation_rate":0}]',
    '"temperature"',
    '42',
    'true',
    '',
    ' ',
    '\u0000',
  ),
  fc.string({ maxLength: 200 }),
);

/** Nesting deep enough to hurt a recursive parser or serializer. */
const deeplyNested: fc.Arbitrary<string> = fc
  .record({
    depth: fc.integer({ min: 50, max: 10_000 }),
    shape: fc.constantFrom('array', 'object', 'mixed'),
    at: fc.constantFrom(...FIELD_NAMES, 'extra'),
  })
  .map(({ depth, shape, at }) => {
    const open = shape === 'array' ? '['.repeat(depth) : shape === 'object' ? '{"a":'.repeat(depth) : '[{"a":'.repeat(Math.ceil(depth / 2));
    const close = shape === 'array' ? ']'.repeat(depth) : shape === 'object' ? '}'.repeat(depth) : '}]'.repeat(Math.ceil(depth / 2));
    const inner = shape === 'array' ? '' : '1';
    return `{"temperature":18,"precipitation_rate":0,${JSON.stringify(at)}:${open}${inner}${close}}`;
  });

const formBody: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fieldName, fc.constantFrom(...PROTOTYPE_KEYS, 'api_key', '__proto__[polluted]', 'temperature[]')),
      fc.oneof(numberValue.map(String), fc.string({ maxLength: 16 })),
    ),
    {
      maxLength: 20,
    },
  )
  .map((pairs) => pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&'));

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  '',
  ';;;',
  'application/json, text/plain',
];

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 3 },
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), weight: 1 },
);

function authorizationFor(validKey: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(`Bearer ${validKey}`), weight: 8 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        `bearer ${validKey}`,
        `Basic ${Buffer.from('user:pass').toString('base64')}`,
        `Bearer ${validKey}x`,
        `Bearer ${validKey.slice(0, -1)}`,
        `Bearer ${validKey} ${validKey}`,
        `Bearer ${'k'.repeat(8000)}`,
        'Bearer mow_',
        'Bearer \u00e4\u00f6\u00fc',
        'Token abc',
      ),
      weight: 2,
    },
  );
}

const PATHS = [
  '/v1/calculate',
  '/health',
  '/v1/health',
  '/v1/calculate/',
  '/V1/calculate',
  '/v2/calculate',
  '/',
  '/v1',
  '/v1/calculate/../health',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/calculate%00',
  '/v1/calculate;x',
];

const queryString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 6 },
  { arbitrary: formBody.map((q) => (q ? `?${q}` : '')), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '?',
      '?&&&',
      '?temperature',
      '?temperature=1&temperature=2&precipitation_rate=0',
      '?api_key=',
      '?%zz=1',
      `?x=${'y'.repeat(3000)}`,
    ),
    weight: 1,
  },
);

export function fuzzRequest(validKey: string): fc.Arbitrary<FuzzRequest> {
  const path = fc.oneof({ arbitrary: fc.constant('/v1/calculate'), weight: 8 }, { arbitrary: fc.constantFrom(...PATHS), weight: 2 });
  const method = fc.oneof(
    { arbitrary: fc.constant('POST' as const), weight: 8 },
    {
      arbitrary: fc.constantFrom('GET' as const, 'PUT' as const, 'PATCH' as const, 'DELETE' as const, 'OPTIONS' as const, 'HEAD' as const),
      weight: 2,
    },
  );
  const body = fc.oneof(
    { arbitrary: jsonObjectText.map((payload) => ({ payload, kind: 'json-object' })), weight: 8 },
    { arbitrary: malformedJson.map((payload) => ({ payload, kind: 'malformed-json' })), weight: 3 },
    { arbitrary: deeplyNested.map((payload) => ({ payload, kind: 'deep-json' })), weight: 1 },
    // Generated oversize: just over the product's default limit (65536 bytes); the app under test uses that default.
    {
      arbitrary: fc.integer({ min: 1, max: 4096 }).map((over) => ({ payload: oversizedJsonBody(65_536, over), kind: 'oversized' })),
      weight: 1,
    },
    { arbitrary: formBody.map((payload) => ({ payload, kind: 'form' })), weight: 2 },
    { arbitrary: fc.constant({ payload: undefined as string | undefined, kind: 'no-body' }), weight: 1 },
  );
  return fc
    .record({
      path,
      query: queryString,
      method,
      contentType,
      authorization: authorizationFor(validKey),
      body,
      extraHeader: fc.option(fc.constantFrom('x-forwarded-for', 'content-encoding', 'transfer-encoding-ish', 'expect'), { nil: undefined }),
    })
    .map(({ path: requestPath, query, method: requestMethod, contentType: type, authorization, body: generated, extraHeader }) => {
      const headers: Record<string, string> = {};
      if (type !== undefined) headers['content-type'] = type;
      if (authorization !== undefined) headers.authorization = authorization;
      if (extraHeader === 'x-forwarded-for') headers['x-forwarded-for'] = '203.0.113.9, 10.0.0.1';
      else if (extraHeader === 'content-encoding') headers['content-encoding'] = 'gzip';
      else if (extraHeader === 'transfer-encoding-ish') headers['x-transfer-encoding'] = 'chunked';
      else if (extraHeader === 'expect') headers.expect = '100-continue';
      const request: FuzzRequest = { method: requestMethod, url: `${requestPath}${query}`, headers, kind: generated.kind };
      // light-my-request refuses bodies on GET/HEAD; a real client would not send one either.
      if (generated.payload !== undefined && requestMethod !== 'GET' && requestMethod !== 'HEAD') request.payload = generated.payload;
      return request;
    });
}

/** A body just over `limitBytes`: a valid-looking JSON object padded with an extra field. */
export function oversizedJsonBody(limitBytes: number, overBytes = 1): string {
  const head = '{"temperature":18,"precipitation_rate":0,"padding":"';
  const tail = '"}';
  return head + 'x'.repeat(Math.max(0, limitBytes + overBytes - head.length - tail.length)) + tail;
}

export interface Envelope {
  status: string;
  mfi: unknown;
  message: string;
}

/** Why `body` is not a valid {status, mfi, message} envelope for `statusCode`, or undefined if it is. */
export function envelopeProblem(statusCode: number, body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `body is not JSON: ${JSON.stringify(body.slice(0, 200))}`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'body is not a JSON object';
  const envelope = parsed as Record<string, unknown>;
  if (!['ok', 'error', 'maintenance'].includes(envelope.status as string)) return `status is ${JSON.stringify(envelope.status)}`;
  if (!Object.hasOwn(envelope, 'mfi')) return 'mfi is missing';
  const mfi = envelope.mfi;
  if (mfi !== null && (typeof mfi !== 'object' || Array.isArray(mfi))) return `mfi is ${typeof mfi}`;
  if (typeof envelope.message !== 'string') return 'message is not a string';
  if (statusCode === 200 && (envelope.status !== 'ok' || envelope.message !== '' || mfi === null))
    return 'a 200 that is not {status:"ok", mfi:{…}, message:""}';
  if (statusCode >= 400 && envelope.status === 'ok') return `HTTP ${statusCode} with status "ok"`;
  if ((statusCode === 401 || statusCode === 403 || statusCode === 405) && mfi !== null) return `HTTP ${statusCode} with a non-null mfi`;
  if (statusCode >= 400 && envelope.message === '') return `HTTP ${statusCode} with an empty message`;
  return undefined;
}
