/**
 * Checks a JSON value against the subset of JSON Schema the response schemas
 * use (type, enum, properties, required, additionalProperties, items) and,
 * beyond JSON Schema, that an object's keys come in the order its schema
 * declares them. Returns every violation as "path: problem"; [] means the
 * value is exactly what a schema-driven serialiser would have written.
 */
export interface ResponseSchema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  properties?: Readonly<Record<string, ResponseSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: ResponseSchema;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(actual: string, schema: ResponseSchema): boolean {
  if (schema.type === undefined) return true;
  const allowed: readonly string[] = typeof schema.type === 'string' ? [schema.type] : schema.type;
  return allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
}

function objectViolations(value: Record<string, unknown>, schema: ResponseSchema, path: string): string[] {
  const properties = schema.properties ?? {};
  const declared = Object.keys(properties);
  const keys = Object.keys(value);
  const problems: string[] = [];
  for (const name of schema.required ?? []) if (!keys.includes(name)) problems.push(`${path}: required ${name} is missing`);
  if (schema.additionalProperties !== true) {
    for (const key of keys) if (!declared.includes(key)) problems.push(`${path}: ${key} is not declared`);
  }
  const positions = keys.map((key) => declared.indexOf(key)).filter((index) => index !== -1);
  if (positions.some((position, i) => i > 0 && position < (positions[i - 1] as number))) {
    problems.push(`${path}: keys ${keys.join(',')} are not in the declared order ${declared.join(',')}`);
  }
  for (const key of keys) {
    const child = properties[key];
    if (child !== undefined) problems.push(...schemaViolations(value[key], child, `${path}.${key}`));
  }
  return problems;
}

export function schemaViolations(value: unknown, schema: ResponseSchema, path = '$'): string[] {
  const actual = jsonTypeOf(value);
  if (!typeMatches(actual, schema)) return [`${path}: ${actual} is not ${String(schema.type)}`];
  if (schema.enum !== undefined && !schema.enum.includes(value))
    return [`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined ? [] : value.flatMap((item, index) => schemaViolations(item, items, `${path}[${index}]`));
  }
  if (actual === 'object') return objectViolations(value as Record<string, unknown>, schema, path);
  return [];
}
