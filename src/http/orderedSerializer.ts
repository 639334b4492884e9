/**
 * A JSON serialiser built once from a response schema. Like fastify's
 * fast-json-stringify it writes only the properties a closed object declares
 * and refuses an object that lacks a required one, so a field the schema does
 * not know never reaches a client; unlike it, it keeps the order in which the
 * calculation core built each object (the spec's table order) and hands open
 * objects (additionalProperties: true), strings and numbers to JSON.stringify,
 * which is faster for this payload. Types are not coerced:
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

const stringifyValue: Serialize = (value) => JSON.stringify(value) ?? 'null';

interface Field {
  /** `"name":`, escaped once. */
  prefix: string;
  serialize: Serialize;
  required: boolean;
}

function closedObjectSerializer(schema: SerializerSchema, properties: Readonly<Record<string, SerializerSchema>>): Serialize {
  const required = new Set(schema.required ?? []);
  const fields = new Map<string, Field>(
    Object.entries(properties).map(([name, child]) => [name, { prefix: `${JSON.stringify(name)}:`, serialize: compileSerializer(child), required: required.has(name) }]),
  );
  return (value) => {
    // null where the schema allows it (e.g. the health body while stopping), or a primitive: as JSON.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return stringifyValue(value);
    const record = value as Record<string, unknown>;
    let out = '';
    let requiredSeen = 0;
    for (const key of Object.keys(record)) {
      const field = fields.get(key);
      const fieldValue = record[key];
      if (field === undefined || fieldValue === undefined) continue;
      out += `${out === '' ? '' : ','}${field.prefix}${field.serialize(fieldValue)}`;
      if (field.required) requiredSeen++;
    }
    if (requiredSeen !== required.size) {
      const missing = [...required].filter((name) => record[name] === undefined);
      throw new Error(`response object lacks required field(s) ${missing.join(', ')}`);
    }
    return `{${out}}`;
  };
}

export function compileSerializer(schema: SerializerSchema): Serialize {
  if (schema.properties !== undefined && schema.additionalProperties !== true) return closedObjectSerializer(schema, schema.properties);
  const items = schema.items;
  if (items?.properties !== undefined && items.additionalProperties !== true) {
    const serializeItem = compileSerializer(items);
    return (value) => (Array.isArray(value) ? `[${value.map((item) => (item === undefined ? 'null' : serializeItem(item))).join(',')}]` : stringifyValue(value));
  }
  return stringifyValue;
}
