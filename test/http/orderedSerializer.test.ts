import { describe, expect, it } from 'vitest';
import { compileSerializer } from '../../src/http/orderedSerializer.js';
import { errorEnvelopeSchema, healthResponses } from '../../src/http/schemas.js';

const schema = {
  type: 'object',
  required: ['b', 'a'],
  properties: {
    a: { type: 'integer' },
    b: { type: 'string' },
    open: { type: 'object', additionalProperties: true },
    list: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } },
    nested: { type: 'object', properties: { keep: { type: 'boolean' } } },
  },
} as const;

describe('compileSerializer', () => {
  const serialize = compileSerializer(schema);

  it("keeps the object's own key order, not the schema's, and writes what JSON.stringify writes", () => {
    const value = { b: 'ä – "q"\n', a: 1, open: { z: 1, y: [null, 'u'] }, list: [{ x: 2 }], nested: { keep: false } };
    expect(serialize(value)).toBe(JSON.stringify(value));
  });

  it('drops undeclared fields of closed objects at any depth, keeps everything in open objects', () => {
    const value = { a: 1, secret: 's', b: 'b', open: { secret: 'kept' }, list: [{ x: 1, secret: 2 }], nested: { keep: true, secret: 3 } };
    expect(JSON.parse(serialize(value))).toEqual({ a: 1, b: 'b', open: { secret: 'kept' }, list: [{ x: 1 }], nested: { keep: true } });
  });

  it('drops an undeclared field found only deep down (a later array item, a nested object) and leaves the input untouched', () => {
    const deepItem = { a: 1, b: 'b', list: [{ x: 1 }, { x: 2, secret: 2 }] };
    expect(serialize(deepItem)).toBe('{"a":1,"b":"b","list":[{"x":1},{"x":2}]}');
    expect(deepItem.list[1]).toEqual({ x: 2, secret: 2 });
    expect(serialize({ b: 'b', a: 1, nested: { secret: 3, keep: true } })).toBe('{"b":"b","a":1,"nested":{"keep":true}}');
    expect(() => serialize({ a: 1, b: 'b', secret: 1, list: [{ x: 1 }], nested: { keep: true } })).not.toThrow();
  });

  it('skips undefined values like JSON.stringify and refuses a missing required field', () => {
    expect(serialize({ a: 1, b: 'b', nested: undefined })).toBe('{"a":1,"b":"b"}');
    expect(() => serialize({ a: 1 })).toThrow(/required field\(s\) b/);
    expect(() => serialize({ a: 1, b: undefined })).toThrow(/required/);
  });

  it('writes a conforming value as it is and anything else through the copy: a class instance, an own toJSON, a null prototype', () => {
    class Row {
      a = 1;
      b = 'b';
      toJSON(): unknown {
        return 'leaked';
      }
    }
    expect(serialize(new Row())).toBe('{"a":1,"b":"b"}');
    expect(serialize({ a: 1, b: 'b', toJSON: () => 'leaked' })).toBe('{"a":1,"b":"b"}');
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 'b', a: 2, nested: { keep: true } });
    expect(serialize(bare)).toBe('{"b":"b","a":2,"nested":{"keep":true}}');
    expect(serialize({ a: 1, b: 'b', undeclared: undefined, list: [{ x: 1, gone: undefined }] })).toBe('{"a":1,"b":"b","list":[{"x":1}]}');
  });

  it('writes null and primitives where the schema allows them, e.g. a null body', () => {
    expect(compileSerializer(healthResponses[503])({ status: 'error', mfi: null, message: 'x' })).toBe(
      '{"status":"error","mfi":null,"message":"x"}',
    );
    expect(compileSerializer(errorEnvelopeSchema)({ status: 'error', mfi: null, message: 'x', extra: 1 })).toBe(
      '{"status":"error","mfi":null,"message":"x"}',
    );
  });
});
