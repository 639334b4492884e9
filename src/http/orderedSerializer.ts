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

const keep: Filter = (value) => value;

interface Field {
  filter: Filter;
  required: boolean;
}

/** A copy of a closed object with only its declared fields, in the object's own order; open parts are shared, not copied. */
function closedObjectFilter(schema: SerializerSchema, properties: Readonly<Record<string, SerializerSchema>>): Filter {
  const required = new Set(schema.required ?? []);
  const fields = new Map<string, Field>(Object.entries(properties).map(([name, child]) => [name, { filter: compileFilter(child), required: required.has(name) }]));
  return (value) => {
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
}

function compileFilter(schema: SerializerSchema): Filter {
  if (schema.properties !== undefined && schema.additionalProperties !== true) return closedObjectFilter(schema, schema.properties);
  const items = schema.items;
  if (items?.properties !== undefined && items.additionalProperties !== true) {
    const filterItem = compileFilter(items);
    return (value) => (Array.isArray(value) ? value.map((item) => filterItem(item)) : value);
  }
  return keep;
}

/** Filters with the schema, then one JSON.stringify over the whole copy (V8's fast path, a flat string). */
export function compileSerializer(schema: SerializerSchema): Serialize {
  const filter = compileFilter(schema);
  return (value) => JSON.stringify(filter(value)) ?? 'null';
}
