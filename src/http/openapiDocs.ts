/**
 * Documentation-only parts of the OpenAPI document: the calculation input,
 * one response per documented error status with its messages, and examples.
 * They are merged into the document (./openapi.ts), never into the route
 * schemas, because a request schema would make fastify validate and coerce
 * the input, while docs/api.md ("POST /v1/calculate") ignores out-of-range values instead of
 * rejecting them, and the serialisers must stay exactly as they are.
 */
import { FIELD_SPECS, SEASONS, type FieldName } from '../core/index.js';
import { MESSAGES } from './errors.js';
import { errorEnvelopeSchema } from './schemas.js';

/*
 * Example responses, taken from real answers of this service (POST
 * /v1/calculate with the example input below; GET /health). Shortened where
 * docs/api.md leaves content open (meta, and only two of the five checks shown).
 */
export const calculateOkExample = {
  status: 'ok',
  mfi: {
    mfi_version: '1.0.0',
    season: 'summer',
    season_source: 'auto',
    index_score: 95,
    main_status: 'OK',
    data_quality: 'partial',
    score_basis: { checks_used: 5, checks_total: 5, limiting_check: 'humidity' },
    available_fields: ['temperature', 'precipitation_rate', 'humidity', 'wind_speed', 'soil_temperature', 'rain_1h', 'rain_24h'],
    missing_fields: [
      'wind_gusts',
      'dew_point',
      'solar',
      'soil_moisture',
      'rain_12h',
      'rain_14d',
      'minutes_since_rain',
      'min_temp_3h',
      'min_temp_3d',
      'min_temp_14d',
    ],
    checks: {
      wind: {
        executed: true,
        status: 'OK',
        score: 100,
        data_confidence: 'medium',
        reasons: ['Wind 12 km/h (Bft 3), Böen geschätzt 18 km/h – unkritisch.'],
        skipped_parts: {},
        meta: { wind: 12, gust: 18, season: 'summer' },
      },
      humidity: {
        executed: true,
        status: 'OK',
        score: 94,
        data_confidence: 'medium',
        reasons: ['Taupunktdifferenz 6,7 K (Luftfeuchte 65 %) – keine Taubildung, Halme trocken.'],
        skipped_parts: { sun_drying: { reason: 'No solar irradiance; active drying by the sun cannot be credited.', missing: ['solar'] } },
        meta: { humidity: 65, temperature: 18.5, season: 'summer', dew_point_depression: 6.71, drying_potential: 0.44 },
      },
    },
    protocol: {
      skipped_checks: [],
      partial_checks: [
        { check: 'temperature', parts: ['frost_history'] },
        { check: 'humidity', parts: ['sun_drying'] },
      ],
    },
    calculated_at: '2026-06-15 14:00:00',
    rain_source_info: {
      windows_used: ['rain_1h', 'rain_24h'],
      cumulative_source: 'rain_24h',
      not_provided: ['rain_12h'],
      note: 'Differences between the supplied windows form time slices (0-1 h, 1-12 h, 12-24 h) for surface moisture; more recent slices weigh more.',
    },
  },
  message: '',
} as const;

export const healthOkExample = {
  status: 'ok',
  mfi: {
    status: 'ok',
    maintenance_mode: false,
    mfi_version: '1.0.0',
    checks: { database: { status: 'ok' }, maintenance: { status: 'inactive' }, config: { status: 'ok' } },
    response_time_ms: 2,
  },
  message: '',
} as const;

export const healthMaintenanceExample = {
  status: 'maintenance',
  mfi: {
    status: 'maintenance',
    maintenance_mode: true,
    mfi_version: '1.0.0',
    checks: { database: { status: 'ok' }, maintenance: { status: 'active' }, config: { status: 'ok' } },
    response_time_ms: 2,
  },
  message: MESSAGES.maintenance,
} as const;

export const healthDownExample = {
  status: 'error',
  mfi: {
    status: 'error',
    maintenance_mode: false,
    mfi_version: null,
    checks: {
      database: { status: 'error', message: 'SQLITE_CANTOPEN: unable to open database file' },
      maintenance: { status: 'inactive' },
      config: { status: 'ok' },
    },
    response_time_ms: 3,
  },
  message: MESSAGES.systemChecksFailed,
} as const;

const FIELD_MEANINGS: Record<FieldName, string> = {
  temperature: 'Current air temperature.',
  precipitation_rate: 'Current precipitation rate.',
  humidity: 'Relative humidity; activates the humidity check.',
  wind_speed: 'Wind speed.',
  wind_gusts: 'Gusts; improves the wind check.',
  dew_point: 'Dew point; improves the humidity check (dew formation risk).',
  solar: 'Current solar irradiance.',
  soil_temperature: 'Soil temperature; activates the soiltemp check.',
  soil_moisture: 'Soil moisture; feeds the load-bearing (trafficability) assessment.',
  rain_1h: 'Precipitation, last 1 hour.',
  rain_12h: 'Precipitation, last 12 hours.',
  rain_24h: 'Precipitation, last 24 hours.',
  rain_14d: 'Precipitation sum, last 14 days.',
  minutes_since_rain: 'Minutes since the last precipitation event.',
  min_temp_3h: 'Minimum temperature, last 3 hours.',
  min_temp_3d: 'Minimum temperature, last 3 days.',
  min_temp_14d: 'Minimum temperature, last 14 days.',
};

const OUT_OF_RANGE = 'A value outside the range is ignored (listed in missing_fields), not an error.';

function fieldProperties(): Record<string, object> {
  const properties: Record<string, object> = {};
  for (const spec of FIELD_SPECS) {
    properties[spec.name] = {
      type: 'number',
      minimum: spec.min,
      maximum: spec.max,
      description: `${FIELD_MEANINGS[spec.name]} Unit: ${spec.unit}, valid ${spec.min} to ${spec.max}. ${OUT_OF_RANGE}`,
    };
  }
  properties.season = {
    type: 'string',
    enum: [...SEASONS],
    description: 'Debug/test only: forces the season when the server allows it (setting allowSeasonOverride); ignored otherwise.',
  };
  return properties;
}

const EXAMPLE_INPUT = {
  temperature: 18.5,
  precipitation_rate: 0,
  humidity: 65,
  wind_speed: 12,
  rain_1h: 0,
  rain_24h: 1.2,
  soil_temperature: 14,
};

/** The calculation input: JSON object, or form fields (numbers as decimal strings). */
export const calculateInputSchema = {
  type: 'object',
  required: FIELD_SPECS.filter((spec) => spec.required).map((spec) => spec.name),
  properties: fieldProperties(),
  examples: [EXAMPLE_INPUT],
} as const;

export const apiKeyFieldSchema = {
  type: 'string',
  description: 'The API key, as an alternative to the Authorization header (form-encoded POST bodies; api_key query parameter on GET).',
} as const;

function errorResponse(description: string, messages: readonly string[]) {
  const listed = messages.map((message) => `"${message}"`).join(', ');
  return {
    ...errorEnvelopeSchema,
    description: `${description} Message: ${listed}`,
    examples: messages.map((message) => ({ status: 'error', mfi: null, message })),
  };
}

const blocked = errorResponse('Client address blocked.', [MESSAGES.accessDenied]);
const badRequest = errorResponse('Malformed request.', [
  MESSAGES.malformedJson,
  MESSAGES.bodyNotObject,
  MESSAGES.badContentLength,
  MESSAGES.malformedUrl,
  MESSAGES.missingHost,
  MESSAGES.badRequest,
]);
const tooMany = errorResponse('Rate limit exceeded; see the Retry-After header.', [MESSAGES.tooManyRequests]);
const internal = errorResponse('Unexpected server error.', [MESSAGES.internal]);
const shuttingDown = errorResponse('The service is stopping.', [MESSAGES.shuttingDown]);

/** The documented answers of /v1/calculate; the 413 message names the configured body limit. */
export function calculateResponseDocs(bodyLimitBytes: number) {
  return {
    200: { description: 'The calculation result.', examples: [calculateOkExample] },
    400: errorResponse('No usable input or a malformed request. Missing or invalid temperature/precipitation_rate also give 400.', [
      'Missing or invalid required field(s): temperature, precipitation_rate.',
      MESSAGES.malformedJson,
      MESSAGES.bodyNotObject,
      MESSAGES.badContentLength,
      MESSAGES.malformedUrl,
      MESSAGES.missingHost,
    ]),
    401: errorResponse('No key, or an unknown key.', [MESSAGES.noApiKey, MESSAGES.invalidApiKey]),
    403: errorResponse('Key disabled, or client address blocked.', [MESSAGES.apiKeyDisabled, MESSAGES.accessDenied]),
    405: errorResponse('Method not permitted for this key (GET needs a key enabled for GET) or for this path.', [
      MESSAGES.methodNotAllowed,
    ]),
    408: errorResponse('The request was not received in time.', [MESSAGES.requestTimeout]),
    413: errorResponse('Body larger than the configured limit.', [MESSAGES.bodyTooLarge(bodyLimitBytes)]),
    415: errorResponse('Body neither JSON nor form-encoded.', [MESSAGES.unsupportedMediaType]),
    429: tooMany,
    431: errorResponse('Request headers too large.', [MESSAGES.headersTooLarge]),
    500: internal,
    503: errorResponse('Maintenance mode, or the service is stopping.', [MESSAGES.maintenance, MESSAGES.shuttingDown]),
  } as const;
}

export const healthResponseDocs = {
  200: { description: 'All components normal.', examples: [healthOkExample] },
  503: {
    description: `Maintenance mode ("${MESSAGES.maintenance}"), a failed database or configuration check ("${MESSAGES.systemChecksFailed}"), or the service is stopping ("${MESSAGES.shuttingDown}", mfi null).`,
    examples: [healthMaintenanceExample, healthDownExample, { status: 'error', mfi: null, message: MESSAGES.shuttingDown }],
  },
  400: badRequest,
  403: blocked,
  500: internal,
} as const;

export const openApiResponseDocs = {
  200: { description: 'This OpenAPI 3.1 document.' },
  400: badRequest,
  403: blocked,
  429: tooMany,
  500: internal,
  503: shuttingDown,
} as const;
