/**
 * A JSON serialiser built once from a response schema. Like fastify's
 * fast-json-stringify it writes only the properties a closed object declares
 * and refuses an object that lacks a required one, so a field the schema does
 * not know never reaches a client; unlike it, it keeps the order in which the
 * calculation core built each object (the order of docs/api.md's examples), shares open
 * objects (additionalProperties: true) instead of copying them, and leaves the
 * writing to one JSON.stringify, which is faster for this payload. Types are not coerced:
 * test/http/responseShape.test.ts proves the core emits the declared types.
 */
export interface SerializerSchema {
  type?: string | readonly string[];
  properties?: Readonly<Record<string, SerializerSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: SerializerSchema;
}

export type Serialize = (value: unknown) => string;
type Filter = (value: unknown) => unknown;
/** True when the filter would copy `value` unchanged: stringifying it as it is then writes the same text. */
type Conforms = (value: unknown) => boolean;

interface Compiled {
  filter: Filter;
  conforms: Conforms;
}

const KEEP: Compiled = { filter: (value) => value, conforms: () => true };

interface Field extends Compiled {
  required: boolean;
}

/** A plain object (what the core builds), whose keys for-in lists exactly as Object.keys does. */
function isPlainRecord(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A copy of a closed object with only its declared fields, in the object's own order; open parts are shared, not copied. */
function closedObject(schema: SerializerSchema, properties: Readonly<Record<string, SerializerSchema>>): Compiled {
  const required = new Set(schema.required ?? []);
  const fields = new Map<string, Field>(
    Object.entries(properties).map(([name, child]) => [name, { ...compile(child), required: required.has(name) }]),
  );
  const filter: Filter = (value) => {
    // null where the schema allows it (e.g. the health body while stopping), or a primitive: as it is.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const copy: Record<string, unknown> = {};
    let requiredSeen = 0;
    for (const key of Object.keys(record)) {
      const field = fields.get(key);
      const fieldValue = record[key];
      if (field === undefined || fieldValue === undefined) continue;
      copy[key] = field.filter(fieldValue);
      if (field.required) requiredSeen++;
    }
    if (requiredSeen !== required.size) {
      const missing = [...required].filter((name) => record[name] === undefined);
      throw new Error(`response object lacks required field(s) ${missing.join(', ')}`);
    }
    return copy;
  };
  // The same walk without a copy: only declared fields (or undefined ones, which neither writes), every required one.
  const conforms: Conforms = (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
    if (!isPlainRecord(value)) return false;
    const record = value as Record<string, unknown>;
    let requiredSeen = 0;
    for (const key in record) {
      const fieldValue = record[key];
      if (fieldValue === undefined) continue;
      const field = fields.get(key);
      if (field === undefined || !field.conforms(fieldValue)) return false;
      if (field.required) requiredSeen++;
    }
    return requiredSeen === required.size;
  };
  return { filter, conforms };
}

function compile(schema: SerializerSchema): Compiled {
  if (schema.properties !== undefined && schema.additionalProperties !== true) return closedObject(schema, schema.properties);
  const items = schema.items;
  if (items?.properties !== undefined && items.additionalProperties !== true) {
    const item = compile(items);
    return {
      filter: (value) => (Array.isArray(value) ? value.map((entry) => item.filter(entry)) : value),
      conforms: (value) => !Array.isArray(value) || value.every((entry) => item.conforms(entry)),
    };
  }
  return KEEP;
}

/**
 * Filters with the schema, then one JSON.stringify over the whole copy (V8's fast path, a flat string). A value
 * the filter would copy unchanged (every answer the core gives) is checked in place and written without the copy.
 */
export function compileSerializer(schema: SerializerSchema): Serialize {
  const { filter, conforms } = compile(schema);
  return (value) => JSON.stringify(conforms(value) ? value : filter(value)) ?? 'null';
}
