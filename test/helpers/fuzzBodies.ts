/**
 * Generators of hostile request parts for the HTTP fuzz tests (fast-check): values, field names,
 * JSON, nested, raw and form bodies, content types.
 */
import fc from 'fast-check';
import { FIELD_NAMES } from '../../src/core/index.js';

export const nastyValue = fc.oneof(
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

export const fieldName = fc.oneof(
  fc.constantFrom(...FIELD_NAMES),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'api_key', 'season'),
  fc.string({ maxLength: 12 }),
);

export const jsonObjectBody = fc.dictionary(fieldName, nastyValue, { maxKeys: 8 }).map((value) => JSON.stringify(value));

export const nestedBody = fc
  .letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      nastyValue,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fieldName, tie('node'), { maxKeys: 3 }),
    ),
  }))
  .node.map((value) => JSON.stringify(value) ?? 'null');

export const rawBody = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '{', '[]', '{"temperature":18,"temperature":"x"}', ''),
);

export const formBody = fc
  .array(fc.tuple(fieldName, fc.oneof(fc.string({ maxLength: 20 }), fc.double().map(String))), { maxLength: 8 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=abc',
  'application/JSON',
  '',
);
