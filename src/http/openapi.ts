/**
 * GET /openapi.json: the HTTP contract as an OpenAPI 3.1 document, generated
 * by @fastify/swagger from the route schemas plus the documentation-only parts
 * of ./openapiDocs.ts. It is public: it describes the same contract as
 * docs/api.md and holds no secret or per-installation data beyond the server
 * version; like every route it still passes the address block list and the rate limit.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorEnvelopeSchema } from './schemas.js';
import { apiKeyFieldSchema, calculateInputSchema, calculateResponseDocs, healthResponseDocs, openApiResponseDocs } from './openapiDocs.js';

import { CALCULATE_PATH, HEALTH_PATHS, OPENAPI_PATH } from './paths.js';

/** info.version when the caller does not know the product version (tests, benchmarks). */
export const UNKNOWN_VERSION = '0.0.0-unknown';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: "Recommended: header 'Authorization: Bearer <API_KEY>'. Always allowed." },
  apiKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description:
      'api_key=<API_KEY> on GET, only for keys enabled for GET. On a form-encoded POST the body field api_key carries the key (OpenAPI has no scheme for body fields; see the request body).',
  },
} as const;

interface RouteDoc {
  summary: string;
  description: string;
  responses: Record<string, Schema>;
}

function routeDocs(bodyLimitBytes: number): Record<string, RouteDoc> {
  const health: RouteDoc = {
    summary: 'Service health',
    description: 'No API key. Database query, configuration check and maintenance state; checks.mqtt is informational. Not rate limited.',
    responses: healthResponseDocs,
  };
  return {
    [CALCULATE_PATH]: {
      summary: 'Calculate the Mowability Index',
      description:
        'Requires an API key. POST takes a JSON object or form fields; GET (query parameters) only for keys enabled for GET, intended for testing. Only temperature and precipitation_rate are required; out-of-range values are ignored and listed in missing_fields.',
      responses: calculateResponseDocs(bodyLimitBytes),
    },
    ...Object.fromEntries(HEALTH_PATHS.map((path) => [path, health])),
    [OPENAPI_PATH]: { summary: 'This OpenAPI document', description: 'Public, no API key.', responses: openApiResponseDocs },
  };
}

/** Each documented status gets the route's own serialisation schema (exact or range) with the docs' description and examples. */
function documentedResponses(routeResponses: Schema, docs: Record<string, Schema>): Schema {
  const merged: Schema = { ...routeResponses };
  for (const [status, doc] of Object.entries(docs)) {
    const own = (routeResponses[status] ?? routeResponses[`${status[0]}xx`]) as Schema | undefined;
    merged[status] = { ...own, ...doc };
  }
  return merged;
}

function formSchema(): Schema {
  const properties: Schema = {};
  for (const [name, field] of Object.entries(calculateInputSchema.properties)) {
    properties[name] = {
      ...field,
      type: 'string',
      description: `${(field as { description: string }).description} Sent as a decimal string.`,
    };
  }
  return { ...calculateInputSchema, properties: { ...properties, api_key: apiKeyFieldSchema }, examples: undefined };
}

/** One operation object per method: GET reads query parameters, POST a JSON or form body. */
function documentCalculate(paths: Record<string, Record<string, Operation>>): void {
  const calculate = paths[CALCULATE_PATH];
  if (!calculate) return;
  const { required, properties } = calculateInputSchema;
  if (calculate.get) {
    const parameters = Object.entries(properties).map(([name, schema]) => ({
      name,
      in: 'query',
      required: (required as readonly string[]).includes(name),
      schema: { type: 'number', minimum: (schema as Schema).minimum, maximum: (schema as Schema).maximum },
      description: (schema as Schema).description,
    }));
    calculate.get = { ...calculate.get, parameters, security: [{ bearerAuth: [] }, { apiKeyQuery: [] }] };
  }
  if (calculate.post) {
    const requestBody = {
      required: false,
      description: 'The calculation input. No body counts as an empty input (400 names the required fields).',
      content: {
        'application/json': { schema: { ...calculateInputSchema, examples: undefined }, example: calculateInputSchema.examples[0] },
        'application/x-www-form-urlencoded': { schema: formSchema() },
      },
    };
    calculate.post = { ...calculate.post, requestBody, security: [{ bearerAuth: [] }] };
  }
}

export interface OpenApiOptions {
  bodyLimitBytes: number;
  /** info.version: the product version (UNKNOWN_VERSION when the caller does not know it). */
  version: string;
}

/** The generator, then GET /openapi.json (it goes through the same hooks, limiter and error handler as every route). */
async function openApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const docs = routeDocs(options.bodyLimitBytes);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mowability Index Service',
        version: options.version,
        description:
          'Rates how suitable current weather is for mowing a lawn. Every response body is the envelope {status, mfi, message}; errors carry mfi null and a fixed English message. Calculation needs an API key; health and this document do not.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      components: { securitySchemes: SECURITY_SCHEMES as never },
      // Only the calculation needs a key; it states its own security.
      security: [],
    },
    // Fastify's generated HEAD routes answer like their GET and are not part of docs/api.md.
    exposeHeadRoutes: false,
    transform: ({ schema, url }) => {
      const doc = docs[url];
      if (!doc) return { schema, url };
      const response = documentedResponses((schema?.response ?? {}) as Schema, doc.responses);
      return { schema: { ...schema, summary: doc.summary, description: doc.description, response }, url };
    },
    transformObject: (documentObject) => {
      // Always the OpenAPI variant: the plugin is configured with `openapi` above.
      const { openapiObject } = documentObject as { openapiObject: { paths?: unknown } };
      documentCalculate(openapiObject.paths as Record<string, Record<string, Operation>>);
      return openapiObject as never;
    },
  });
  app.route({
    method: 'GET',
    url: OPENAPI_PATH,
    schema: { response: { 200: { type: 'object', additionalProperties: true }, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema } },
    handler: async () => app.swagger(),
  });
}

/** Not encapsulated, and first in the list: the generator only sees routes added after it, in every scope. */
export const openApiPlugin = fp(openApi, { name: 'mowability-openapi' });
